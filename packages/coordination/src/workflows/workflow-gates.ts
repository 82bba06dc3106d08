/**
 * @module workflows/workflow-gates
 * The operator's transitions of a workflow run, each run inside the caller's write:
 * approve an approval gate (the run is pending again, for a driver to continue), reject
 * it with feedback (the stages it depends on back to the previous approval gate, and
 * what follows them, run again with the feedback; a gate with nothing to re-run fails
 * the run), retry failed,
 * rejected, cancelled or interrupted stages, and cancel. Retry and cancel answer the
 * process groups of stages that were running, for the caller to kill.
 */
import { getWorkflowRun, setWorkflowRunState, setWorkflowStage, workflowStagesOf } from '@swarm/storage';
import type { DomainContext } from '../context';
import { downstreamOf } from './stage-graph';
import type { WorkflowDefinition } from './workflow-definition';
import { type DriverAlive, runView, type WorkflowRunView, withLiveness } from './workflow-view';

export interface StageGroup {
  readonly stage: string;
  readonly pgid: number;
  readonly started: number;
}

export type GateResult =
  | { readonly ok: true; readonly run: WorkflowRunView; readonly stages: string[]; readonly groups: StageGroup[] }
  | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): GateResult => ({ ok: false, reason });

async function load(ctx: DomainContext, id: string): Promise<WorkflowRunView | null> {
  const run = await getWorkflowRun(ctx.store, id);
  return run ? runView(run, await workflowStagesOf(ctx.store, id)) : null;
}

async function done(ctx: DomainContext, id: string, stages: string[], groups: StageGroup[] = []): Promise<GateResult> {
  return { ok: true, run: (await load(ctx, id))!, stages, groups };
}

/** The awaiting gate(s) an approve or reject acts on, or why there is none. */
function gatesOf(view: WorkflowRunView | null, id: string, stage: string | undefined): string[] | string {
  if (!view) return `workflow run not found: ${id}`;
  if (view.state !== 'awaiting_approval') return `run ${id} is ${view.state}, not awaiting approval`;
  const awaiting = view.stages.filter((s) => s.state === 'awaiting_approval').map((s) => s.name);
  if (stage === undefined) return awaiting;
  return awaiting.includes(stage)
    ? [stage]
    : `stage ${stage} is not awaiting approval (awaiting: ${awaiting.join(', ') || 'none'})`;
}

export async function approveGate(ctx: DomainContext, id: string, stage?: string): Promise<GateResult> {
  const gates = gatesOf(await load(ctx, id), id, stage);
  if (typeof gates === 'string') return refuse(gates);
  const now = ctx.clock.now();
  for (const g of gates) {
    await setWorkflowStage(
      ctx.store,
      id,
      g,
      ['awaiting_approval'],
      { state: 'completed', output: 'approved', finishedAt: now },
      now,
    );
  }
  await setWorkflowRunState(ctx.store, id, ['awaiting_approval'], { state: 'pending' }, now);
  return done(ctx, id, gates);
}

export async function rejectGate(
  ctx: DomainContext,
  id: string,
  feedback: string | null,
  stage?: string,
): Promise<GateResult> {
  const view = await load(ctx, id);
  const gates = gatesOf(view, id, stage);
  if (typeof gates === 'string') return refuse(gates);
  const def = view!.definition;
  const now = ctx.clock.now();
  const redo = new Set<string>();
  for (const g of gates) {
    for (const d of sinceLastGate(def, g)) {
      redo.add(d);
      for (const after of downstreamOf(def, d)) redo.add(after);
    }
  }
  const output = `rejected${feedback ? `: ${feedback}` : ''}`;
  if (redo.size === 0) {
    for (const g of gates) {
      await setWorkflowStage(
        ctx.store,
        id,
        g,
        ['awaiting_approval'],
        { state: 'rejected', output, finishedAt: now },
        now,
      );
    }
    const error = `stage ${gates.join(', ')} ${output}`;
    await setWorkflowRunState(
      ctx.store,
      id,
      ['awaiting_approval'],
      { state: 'failed', error, feedback, finishedAt: now },
      now,
    );
    return done(ctx, id, gates);
  }
  for (const name of redo) {
    const from = gates.includes(name) ? ['awaiting_approval'] : ['completed', 'pending'];
    const change = gates.includes(name) ? { state: 'pending', output } : { state: 'pending' };
    await setWorkflowStage(ctx.store, id, name, from, change, now);
  }
  await setWorkflowRunState(ctx.store, id, ['awaiting_approval'], { state: 'pending', feedback }, now);
  return done(ctx, id, [...redo]);
}

export async function retryRun(
  ctx: DomainContext,
  id: string,
  alive: DriverAlive,
  stage?: string,
): Promise<GateResult> {
  const raw = await load(ctx, id);
  if (!raw) return refuse(`workflow run not found: ${id}`);
  const view = withLiveness(raw, alive);
  if (!['failed', 'cancelled', 'interrupted', 'pending'].includes(view.state)) {
    const hint = view.state === 'awaiting_approval' ? ': approve or reject it' : '';
    return refuse(`run ${id} is ${view.state}${hint}; only a failed, cancelled or interrupted run can be retried`);
  }
  const again = ['failed', 'rejected', 'cancelled', 'interrupted'];
  if (stage !== undefined && !view.stages.some((s) => s.name === stage && again.includes(s.state))) {
    const found = view.stages.find((s) => s.name === stage);
    return refuse(found ? `stage ${stage} is ${found.state}, nothing to retry` : `unknown stage ${stage} in run ${id}`);
  }
  const reset = view.stages.filter((s) =>
    stage === undefined
      ? again.includes(s.state)
      : s.name === stage || s.state === 'cancelled' || s.state === 'interrupted',
  );
  const groups = reset.flatMap((s) => (s.group ? [{ stage: s.name, ...s.group }] : []));
  const now = ctx.clock.now();
  for (const s of reset) {
    const from = [s.state === 'interrupted' ? 'running' : s.state];
    await setWorkflowStage(ctx.store, id, s.name, from, { state: 'pending', pgid: null, pgidStarted: null }, now);
  }
  const change = { state: 'pending', error: null, pid: null, pidStarted: null, finishedAt: null };
  await setWorkflowRunState(ctx.store, id, [raw.state], change, now);
  return done(
    ctx,
    id,
    reset.map((s) => s.name),
    groups,
  );
}

/** The stages `gate` depends on, directly or through other non-gate stages (a walk stopping at approval gates). */
function sinceLastGate(def: WorkflowDefinition, gate: string): string[] {
  const byName = new Map(def.stages.map((s) => [s.name, s]));
  const seen = new Set<string>();
  const walk = (name: string) => {
    for (const d of byName.get(name)?.depends_on ?? []) {
      if (seen.has(d) || byName.get(d)?.type === 'approval') continue;
      seen.add(d);
      walk(d);
    }
  };
  walk(gate);
  return [...seen];
}

export async function cancelRun(ctx: DomainContext, id: string, alive: DriverAlive): Promise<GateResult> {
  const raw = await load(ctx, id);
  if (!raw) return refuse(`workflow run not found: ${id}`);
  if (!['pending', 'running', 'awaiting_approval'].includes(raw.state)) {
    return refuse(`run ${id} is already ${withLiveness(raw, alive).state}`);
  }
  const now = ctx.clock.now();
  const open = raw.stages.filter((s) => ['pending', 'running', 'awaiting_approval'].includes(s.state));
  const groups = open.flatMap((s) => (s.group ? [{ stage: s.name, ...s.group }] : []));
  for (const s of open) {
    await setWorkflowStage(ctx.store, id, s.name, [s.state], { state: 'cancelled', finishedAt: now }, now);
  }
  const change = { state: 'cancelled', error: 'cancelled by the operator', finishedAt: now };
  await setWorkflowRunState(ctx.store, id, [raw.state], change, now);
  return done(
    ctx,
    id,
    open.map((s) => s.name),
    groups,
  );
}
