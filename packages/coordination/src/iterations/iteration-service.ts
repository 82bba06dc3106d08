/**
 * @module iterations/iteration-service
 * Iteration runs in colony's store: create one, reopen it for `--resume` (the numbering
 * and the best score carry on; an iteration its dead driver left unfinished is done
 * again), record each iteration as it starts and finishes, and stop the run with its
 * reason. Refusals are values.
 */

import {
  finishIteration,
  getIterationRun,
  type IterationRow,
  insertIterationRun,
  iterationsOf,
  reopenIterationRun,
  startIteration,
  stopIterationRun,
} from '@swarm/storage';
import { nodeCrypto } from '../_crypto';
import type { DomainContext } from '../context';
import type { DriverAlive } from '../workflows/workflow-view';
import type { IterationConfig } from './iteration-config';
import type { StopReason } from './progress';

export interface IterationRunView {
  readonly run_id: string;
  readonly name: string;
  readonly repo_root: string;
  readonly config: IterationConfig;
  readonly max_iterations: number;
  readonly state: 'running' | 'stopped' | 'interrupted';
  readonly reason: string | null;
  readonly best_score: number | null;
  readonly iterations: readonly IterationRow[];
}

export interface Driver {
  readonly pid: number;
  readonly started: number | null;
}

export class IterationService {
  constructor(private readonly ctx: DomainContext) {}

  async create(
    config: IterationConfig,
    repoRoot: string,
    maxIterations: number,
    driver: Driver,
  ): Promise<IterationRunView> {
    const now = this.ctx.clock.now();
    const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    for (;;) {
      const id = `it-${stamp}-${nodeCrypto().randomBytes(2).toString('hex')}`;
      const row = {
        id,
        name: config.name,
        repoRoot,
        config: JSON.stringify(config),
        maxIterations,
        pid: driver.pid,
        pidStarted: driver.started,
        createdAt: now,
      };
      if (await this.ctx.store.write(() => insertIterationRun(this.ctx.store, row))) return (await this.view(id))!;
    }
  }

  async view(id: string, alive?: DriverAlive): Promise<IterationRunView | null> {
    const run = await getIterationRun(this.ctx.store, id);
    if (!run) return null;
    const dead =
      run.state === 'running' && alive !== undefined && (run.pid === null || !alive(run.pid, run.pidStarted));
    return {
      run_id: run.id,
      name: run.name,
      repo_root: run.repoRoot,
      config: JSON.parse(run.config) as IterationConfig,
      max_iterations: run.maxIterations,
      state: dead ? 'interrupted' : (run.state as 'running' | 'stopped'),
      reason: run.reason,
      best_score: run.bestScore,
      iterations: await iterationsOf(this.ctx.store, id),
    };
  }

  /** Takes a stopped or interrupted run back to continue it; refused while its driver lives. */
  async reopen(
    id: string,
    driver: Driver,
    maxIterations: number | undefined,
    alive: DriverAlive,
  ): Promise<{ ok: true; run: IterationRunView } | { ok: false; reason: string }> {
    const run = await this.view(id, alive);
    if (!run) return { ok: false, reason: `iteration run not found: ${id}` };
    if (run.state === 'running') return { ok: false, reason: `iteration run ${id} is still running` };
    const now = this.ctx.clock.now();
    const change = { pid: driver.pid, pidStarted: driver.started, maxIterations: maxIterations ?? run.max_iterations };
    await this.ctx.store.write(() => reopenIterationRun(this.ctx.store, id, change, now));
    return { ok: true, run: (await this.view(id))! };
  }

  async start(id: string, n: number): Promise<void> {
    const now = this.ctx.clock.now();
    await this.ctx.store.write(() => startIteration(this.ctx.store, id, n, now));
  }

  async finish(
    id: string,
    n: number,
    result: { exit_code: number | null; score: number | null; improved: boolean; output: string; failed: boolean },
    best: number | null,
  ): Promise<void> {
    const now = this.ctx.clock.now();
    const it = {
      number: n,
      state: result.failed ? 'failed' : 'finished',
      exitCode: result.exit_code,
      score: result.score,
      improved: result.improved,
      output: result.output,
    };
    await this.ctx.store.write(() => finishIteration(this.ctx.store, id, it, best, now));
  }

  async stop(id: string, reason: StopReason | 'cancelled'): Promise<void> {
    const now = this.ctx.clock.now();
    await this.ctx.store.write(() => stopIterationRun(this.ctx.store, id, reason, now));
  }
}
