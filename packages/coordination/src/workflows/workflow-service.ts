/**
 * @module workflows/workflow-service
 * Workflow runs in colony's store: create a run, read it, and the driver's transitions
 * (claim the run, start and finish stages, pause at an approval gate, end the run).
 * The operator's transitions (approve, reject, retry, cancel) are in workflow-gates.ts.
 * Every transition is a guarded update in one write, so a run driven by one process and
 * approved or cancelled from another never takes two states. Expected refusals are
 * values (`{ ok: false, reason }`).
 */

import {
  getWorkflowRun,
  insertWorkflowRun,
  listWorkflowRuns,
  setWorkflowRunState,
  setWorkflowStage,
  workflowStagesOf,
} from '@swarm/storage';
import { nodeCrypto } from '../_crypto';
import { mapInOrder } from '../_in-order';
import type { DomainContext } from '../context';
import type { WorkflowDefinition } from './workflow-definition';
import { approveGate, cancelRun, type GateResult, rejectGate, retryRun } from './workflow-gates';
import { type DriverAlive, runView, type WorkflowRunView } from './workflow-view';

export type Refusal = { readonly ok: false; readonly reason: string };
export type Outcome<T = object> = ({ readonly ok: true } & T) | Refusal;

export interface Driver {
  readonly pid: number;
  readonly started: number | null;
}

export class WorkflowService {
  constructor(private readonly ctx: DomainContext) {}

  async create(
    def: WorkflowDefinition,
    repoRoot: string,
    inputs: Readonly<Record<string, string>>,
  ): Promise<WorkflowRunView> {
    const now = this.ctx.clock.now();
    const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    for (;;) {
      const id = `wf-${stamp}-${nodeCrypto().randomBytes(2).toString('hex')}`;
      const row = { id, name: def.name, repoRoot, definition: JSON.stringify(def), inputs: JSON.stringify(inputs) };
      const stages = def.stages.map((s) => ({ name: s.name, type: s.type }));
      if (await this.ctx.store.write(() => insertWorkflowRun(this.ctx.store, { ...row, createdAt: now }, stages))) {
        return (await this.view(id))!;
      }
    }
  }

  async view(id: string): Promise<WorkflowRunView | null> {
    const run = await getWorkflowRun(this.ctx.store, id);
    return run ? runView(run, await workflowStagesOf(this.ctx.store, id)) : null;
  }

  async list(repoRoot?: string): Promise<WorkflowRunView[]> {
    const runs = await listWorkflowRuns(this.ctx.store, repoRoot);
    return mapInOrder(runs, async (r) => runView(r, await workflowStagesOf(this.ctx.store, r.id)));
  }

  /** Takes a pending run to drive: it reads `running` with this driver. */
  async claim(id: string, driver: Driver): Promise<Outcome> {
    const now = this.ctx.clock.now();
    const ok = await this.ctx.store.write(() =>
      setWorkflowRunState(
        this.ctx.store,
        id,
        ['pending'],
        { state: 'running', pid: driver.pid, pidStarted: driver.started },
        now,
      ),
    );
    if (ok) return { ok: true };
    const run = await this.view(id);
    return { ok: false, reason: run ? `run ${id} is ${run.state}, not pending` : `workflow run not found: ${id}` };
  }

  /** pending -> running; false when the stage was not pending (cancelled meanwhile). */
  startStage(id: string, stage: string): Promise<boolean> {
    const now = this.ctx.clock.now();
    return this.ctx.store.write(async () => {
      const row = (await workflowStagesOf(this.ctx.store, id)).find((s) => s.name === stage);
      const attempts = (row?.attempts ?? 0) + 1;
      const change = { state: 'running', attempts, exitCode: null, output: null, startedAt: now, finishedAt: null };
      return setWorkflowStage(this.ctx.store, id, stage, ['pending'], change, now);
    });
  }

  async recordGroup(id: string, stage: string, pgid: number, started: number | null): Promise<void> {
    const now = this.ctx.clock.now();
    await this.ctx.store.write(() =>
      setWorkflowStage(this.ctx.store, id, stage, ['running'], { pgid, pgidStarted: started }, now),
    );
  }

  finishStage(
    id: string,
    stage: string,
    result: { readonly state: 'completed' | 'failed'; readonly exit_code: number | null; readonly output: string },
  ): Promise<boolean> {
    const now = this.ctx.clock.now();
    const change = {
      state: result.state,
      exitCode: result.exit_code,
      output: result.output,
      pgid: null,
      pgidStarted: null,
      finishedAt: now,
    };
    return this.ctx.store.write(() => setWorkflowStage(this.ctx.store, id, stage, ['running'], change, now));
  }

  /** The run stops at an approval gate: stage and run read `awaiting_approval`, no driver. */
  pause(id: string, stage: string): Promise<boolean> {
    const now = this.ctx.clock.now();
    return this.ctx.store.write(async () => {
      const store = this.ctx.store;
      if (
        !(await setWorkflowRunState(
          store,
          id,
          ['running'],
          { state: 'awaiting_approval', pid: null, pidStarted: null },
          now,
        ))
      ) {
        return false;
      }
      await setWorkflowStage(store, id, stage, ['pending'], { state: 'awaiting_approval', startedAt: now }, now);
      return true;
    });
  }

  /** Ends a driven run (completed or failed); false when it left `running` (cancelled). */
  finish(id: string, state: 'completed' | 'failed', error: string | null = null): Promise<boolean> {
    const now = this.ctx.clock.now();
    return this.ctx.store.write(() =>
      setWorkflowRunState(
        this.ctx.store,
        id,
        ['running'],
        { state, error, pid: null, pidStarted: null, finishedAt: now },
        now,
      ),
    );
  }

  approve(id: string, stage?: string): Promise<GateResult> {
    return this.ctx.store.write(() => approveGate(this.ctx, id, stage));
  }

  reject(id: string, feedback: string | null, stage?: string): Promise<GateResult> {
    return this.ctx.store.write(() => rejectGate(this.ctx, id, feedback, stage));
  }

  /** Failed, rejected, cancelled or interrupted stages (or `stage`) back to pending; the run too. */
  retry(id: string, alive: DriverAlive, stage?: string): Promise<GateResult> {
    return this.ctx.store.write(() => retryRun(this.ctx, id, alive, stage));
  }

  cancel(id: string, alive: DriverAlive): Promise<GateResult> {
    return this.ctx.store.write(() => cancelRun(this.ctx, id, alive));
  }
}
