/**
 * @module workspaces/swarm-run-service
 * swarm_run, swarm_status, swarm_collect over @swarm/worktree's engine, with each run
 * and its tasks recorded in the store as they go (so status survives a restart).
 *
 * Invariants: every refusal comes before any row or worktree is made; a run id is taken
 * by its INSERT (suffix -2, -3... when taken); secret values (env_vars, env) are never
 * written (the stored spec keeps their names only). A run still `running` whose process
 * is gone reads `interrupted`, and so do its unfinished workers; `recover` kills the
 * process groups its commands left running (when still ours), removes its worktrees
 * (auto-committed first) and keeps every branch holding commits of its own.
 */
import type { Clock, RateLimiter } from '@swarm/coordination';
import {
  type ColonyStore,
  clearSwarmTaskGroups,
  finishSwarmRun,
  getSwarmRun,
  insertSwarmRun,
  interruptSwarmTasks,
  runningSwarmRuns,
  type SwarmRunRow,
  swarmRunsInState,
  swarmTasksOf,
  updateSwarmTask,
} from '@swarm/storage';
import {
  ColonyError,
  type SwarmCollectInput,
  type SwarmRunAnswer,
  type SwarmRunBackend,
  type SwarmRunInput,
  type SwarmRunResult,
  type SwarmStatusInput,
  type SwarmStatusResult,
} from '@swarm/tools';
import {
  openRepo,
  prepareSwarm,
  processStartTime,
  prunePool,
  runPrepared,
  type SandboxPolicy,
  type SwarmRecorder,
  swarmBranch,
} from '@swarm/worktree';
import { coded, execNotAllowed } from './_refusals';
import { recoverRun } from './recover';

export interface SwarmRunServiceOptions {
  readonly store: ColonyStore;
  readonly clock: Clock;
  readonly allowExec: boolean;
  readonly limiter: RateLimiter;
  readonly beforeCall?: () => Promise<void>;
  /** The OS sandbox of each task's command (colony's `sandbox` setting). */
  readonly sandbox?: SandboxPolicy;
}

export interface SwarmRunService extends SwarmRunBackend {
  /**
   * Marks dead runs interrupted and recovers their worktrees, and prunes the repository's
   * worktree pool (stale or over-capacity slots; `emptyPool` removes them all, as
   * `colony workspace clean` does).
   */
  recover(repoRoot?: string, emptyPool?: boolean): Promise<RecoverReport>;
  /** Resolves when every run started by this process has finished (tests, shutdown). */
  idle(): Promise<void>;
}

export interface RecoverReport {
  interrupted: string[];
  process_groups_killed: number;
  worktrees_removed: number;
  branches_kept: string[];
  branches_deleted: string[];
  pool_removed: number;
}

export function createSwarmRunService(options: SwarmRunServiceOptions): SwarmRunService {
  const { store, clock } = options;
  const active = new Map<string, Promise<SwarmRunResult | null>>();

  const guard = async <T>(tool: string, fn: () => Promise<T>): Promise<T> => {
    if (!options.allowExec) throw execNotAllowed(tool);
    await options.beforeCall?.();
    return coded(fn);
  };

  /** Marks a run whose process is gone interrupted; answers the row as it now stands. */
  const settle = async (row: SwarmRunRow): Promise<SwarmRunRow> => {
    if (row.state !== 'running' || active.has(row.id) || runnerAlive(row)) return row;
    await store.write(async () => {
      // Its workers died with it: none still reads executing (their process groups stay recorded for recover).
      if (await finishSwarmRun(store, row.id, 'interrupted', null, clock.now()))
        await interruptSwarmTasks(store, row.id, clock.now());
    });
    return { ...row, state: 'interrupted' };
  };

  const find = async (id: string): Promise<SwarmRunRow> => {
    const row = await getSwarmRun(store, id);
    if (!row) throw new ColonyError('SWARM_NOT_FOUND', `no swarm run "${id}"`, { details: { swarm_id: id } });
    return settle(row);
  };

  const status = async (id: string): Promise<SwarmStatusResult> => {
    const row = await find(id);
    const workers = (await swarmTasksOf(store, id)).map((t) => ({
      name: t.name,
      workspace_id: t.workspaceId,
      state: t.state,
      ...(t.exitCode !== null ? { exit_code: t.exitCode } : {}),
      elapsed_ms: t.elapsedMs,
    }));
    const count = (...states: string[]) => workers.filter((w) => states.includes(w.state)).length;
    return {
      swarm_id: id,
      state: row.state,
      workers,
      progress: {
        total: workers.length,
        completed: count('completed', 'failed', 'timed_out', 'skipped', 'interrupted'),
        running: count('waiting', 'executing'),
        failed: count('failed', 'timed_out', 'skipped', 'interrupted'),
      },
    };
  };

  async function run(args: SwarmRunInput): Promise<SwarmRunAnswer> {
    const prepared = await prepareSwarm({ ...args, sandbox: options.sandbox });
    options.limiter.take('swarm_run', args.agent, args.tasks.length);
    const id = await allocate(args, prepared.baseCommit);
    // Bookkeeping never fails a run: a store closed under a background run just stops recording.
    const record = async (fn: () => void) => {
      if (store.closed) return;
      try {
        await store.write(fn);
      } catch {
        // The row stays as last written; status reads it (or interrupted once this process is gone).
      }
    };
    const recorder: SwarmRecorder = {
      worker: (p) =>
        record(() =>
          updateSwarmTask(
            store,
            id,
            {
              name: p.name,
              state: p.state,
              workspaceId: p.workspace_id,
              exitCode: p.exit_code,
              elapsedMs: p.elapsed_ms,
              startCommit: p.start_commit,
              pgid: p.pgid,
              pgidStarted: p.pgid_started,
            },
            clock.now(),
          ),
        ),
      finished: (result, state) => record(() => finishSwarmRun(store, id, state, JSON.stringify(result), clock.now())),
    };
    const done = runPrepared(prepared, id, recorder).catch(async (error: unknown) => {
      await record(() => finishSwarmRun(store, id, 'failed', null, clock.now()));
      if (!args.background) throw error;
      return null;
    });
    active.set(id, done);
    void done.finally(() => active.delete(id)).catch(() => {});
    if (args.background) return { swarm_id: id, state: 'running' };
    return (await done) as SwarmRunResult;
  }

  /** Takes the first free id of `swarm-YYYYMMDD-HHMMSS`, `-2`, `-3`... by inserting it. */
  async function allocate(args: SwarmRunInput, baseCommit: string): Promise<string> {
    const base = `swarm-${stamp(clock.now())}`;
    const spec = JSON.stringify({
      ...args,
      env_vars: Object.keys(args.env_vars ?? {}),
      tasks: args.tasks.map((t) => ({ ...t, env: Object.keys(t.env ?? {}) })),
    });
    for (let n = 1; ; n++) {
      const id = n === 1 ? base : `${base}-${n}`;
      const tasks = args.tasks.map((t) => ({ name: t.name, branch: swarmBranch(id, t.name) }));
      const taken = await store.write(() =>
        insertSwarmRun(
          store,
          {
            id,
            repoRoot: args.repo_root,
            baseRef: args.base_ref,
            baseCommit,
            mergeStrategy: args.merge_strategy ?? null,
            mergeTarget: args.merge_target ?? null,
            pid: process.pid,
            pidStarted: processStartTime(process.pid),
            spec,
            createdAt: clock.now(),
          },
          tasks,
        ),
      );
      if (taken) return id;
    }
  }

  async function collect(args: SwarmCollectInput): Promise<SwarmRunResult> {
    const deadline = performance.now() + args.wait_secs * 1000;
    for (;;) {
      const row = await find(args.swarm_id);
      if (row.result !== null) return JSON.parse(row.result) as SwarmRunResult;
      const left = deadline - performance.now();
      if (row.state !== 'running' || left <= 0) {
        const now = await status(args.swarm_id);
        throw new ColonyError(
          'SWARM_NOT_FINISHED',
          row.state === 'interrupted'
            ? `swarm ${args.swarm_id} was interrupted: its process died before it finished (colony workspace clean recovers its worktrees)`
            : `swarm ${args.swarm_id} is still running`,
          { details: { swarm_id: args.swarm_id, state: now.state, progress: now.progress } },
        );
      }
      const mine = active.get(args.swarm_id);
      const pause = new Promise((resolve) => setTimeout(resolve, Math.min(left, 250)));
      await (mine ? Promise.race([mine.catch(() => null), pause]) : pause);
    }
  }

  async function recover(repoRoot?: string, emptyPool = false): Promise<RecoverReport> {
    const report: RecoverReport = {
      interrupted: [],
      process_groups_killed: 0,
      worktrees_removed: 0,
      branches_kept: [],
      branches_deleted: [],
      pool_removed: 0,
    };
    for (const row of await runningSwarmRuns(store, repoRoot)) {
      if ((await settle(row)).state === 'interrupted') report.interrupted.push(row.id);
    }
    for (const row of await swarmRunsInState(store, 'interrupted', repoRoot)) {
      const one = await recoverRun(row, await swarmTasksOf(store, row.id));
      // Checked once: a later pid with the same number is never ours to signal.
      await store.write(() => clearSwarmTaskGroups(store, row.id));
      report.process_groups_killed += one.groupsKilled;
      report.worktrees_removed += one.worktreesRemoved;
      report.branches_kept.push(...one.branchesKept);
      report.branches_deleted.push(...one.branchesDeleted);
    }
    if (repoRoot !== undefined) {
      const repo = await openRepo(repoRoot).catch(() => null);
      if (repo) report.pool_removed = await prunePool(repo, { all: emptyPool });
    }
    return report;
  }

  return {
    run: (args) => guard('swarm_run', () => run(args)),
    status: (args: SwarmStatusInput) => guard('swarm_status', async () => status(args.swarm_id)),
    collect: (args) => guard('swarm_collect', () => collect(args)),
    clean: (args) => guard('workspace_clean', () => recover(args.repo_root, true)),
    recover: (repoRoot, emptyPool) => coded(() => recover(repoRoot, emptyPool)),
    idle: async () => {
      await Promise.allSettled([...active.values()]);
    },
  };
}

/**
 * Whether the process that runs a run still lives: its pid answers signal 0 and, where
 * its start time was recorded (Linux), still has it, so a reused pid is not taken for it.
 */
function runnerAlive(row: SwarmRunRow): boolean {
  try {
    process.kill(row.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (row.pidStarted === null) return true;
  const started = processStartTime(row.pid);
  return started === null || started === row.pidStarted;
}

/** `YYYYMMDD-HHMMSS` in UTC. */
function stamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}
