/**
 * @module swarm-runs
 * Swarm runs and their tasks (see schema/runs.ts). A run id is taken by its INSERT:
 * `insertSwarmRun` answers false when the id exists, and the caller tries the next
 * suffix. JSON columns stay JSON text here.
 */
import { type Store, statement } from './_store';

export type SwarmRunState = 'running' | 'completed' | 'failed' | 'interrupted';

export interface SwarmRunRow {
  readonly id: string;
  readonly repoRoot: string;
  readonly baseRef: string;
  readonly baseCommit: string;
  readonly mergeStrategy: string | null;
  readonly mergeTarget: string | null;
  readonly state: SwarmRunState;
  readonly pid: number;
  /** The running process's start time (see schema/runs.ts); null where unknown. */
  readonly pidStarted: number | null;
  /** JSON text. */
  readonly spec: string;
  /** JSON text, once finished. */
  readonly result: string | null;
  readonly createdAt: number;
  readonly finishedAt: number | null;
}

export interface SwarmTaskRow {
  readonly swarmId: string;
  readonly name: string;
  readonly position: number;
  readonly state: string;
  readonly workspaceId: string | null;
  readonly branch: string;
  readonly exitCode: number | null;
  readonly elapsedMs: number;
  readonly startCommit: string | null;
  /** While executing: the command's process group and its leader's start time (see schema/runs.ts). */
  readonly pgid: number | null;
  readonly pgidStarted: number | null;
  readonly updatedAt: number;
}

const RUN_COLUMNS = `id, repo_root AS repoRoot, base_ref AS baseRef, base_commit AS baseCommit,
  merge_strategy AS mergeStrategy, merge_target AS mergeTarget, state, pid, pid_started AS pidStarted, spec, result,
  created_at AS createdAt, finished_at AS finishedAt`;
const TASK_COLUMNS = `swarm_id AS swarmId, name, position, state, workspace_id AS workspaceId, branch,
  exit_code AS exitCode, elapsed_ms AS elapsedMs, start_commit AS startCommit, pgid, pgid_started AS pgidStarted,
  updated_at AS updatedAt`;

/** Inserts a running run and its pending tasks; false when the id is taken. */
export function insertSwarmRun(
  store: Store,
  run: Omit<SwarmRunRow, 'state' | 'result' | 'finishedAt'>,
  tasks: readonly { readonly name: string; readonly branch: string }[],
): boolean {
  const inserted = statement(
    store,
    `INSERT INTO swarm_runs (id, repo_root, base_ref, base_commit, merge_strategy, merge_target, state, pid, pid_started,
       spec, created_at)
     VALUES (@id, @repoRoot, @baseRef, @baseCommit, @mergeStrategy, @mergeTarget, 'running', @pid, @pidStarted,
       @spec, @createdAt)
     ON CONFLICT (id) DO NOTHING`,
  ).run(run);
  if (inserted.changes === 0) return false;
  const insertTask = statement(
    store,
    `INSERT INTO swarm_tasks (swarm_id, name, position, state, branch, updated_at)
     VALUES (?, ?, ?, 'pending', ?, ?)`,
  );
  tasks.forEach((task, i) => {
    insertTask.run(run.id, task.name, i, task.branch, run.createdAt);
  });
  return true;
}

/** A swarm task's new state and outcome. */
export interface SwarmTaskUpdate {
  readonly name: string;
  readonly state: string;
  readonly workspaceId: string | null;
  readonly exitCode: number | null;
  readonly elapsedMs: number;
  readonly startCommit: string | null;
  readonly pgid: number | null;
  readonly pgidStarted: number | null;
}

export function updateSwarmTask(store: Store, swarmId: string, task: SwarmTaskUpdate, now: number): void {
  statement(
    store,
    `UPDATE swarm_tasks SET state = @state, workspace_id = @workspaceId, exit_code = @exitCode,
       elapsed_ms = @elapsedMs, start_commit = @startCommit, pgid = @pgid, pgid_started = @pgidStarted,
       updated_at = @now
     WHERE swarm_id = @swarmId AND name = @name`,
  ).run({ ...task, swarmId, now });
}

/**
 * Marks a dead run's unfinished tasks (pending, waiting, executing) `interrupted`, keeping
 * their process groups for the recovery to kill; answers how many changed.
 */
export function interruptSwarmTasks(store: Store, swarmId: string, now: number): number {
  return statement(
    store,
    `UPDATE swarm_tasks SET state = 'interrupted', updated_at = ?
     WHERE swarm_id = ? AND state IN ('pending', 'waiting', 'executing')`,
  ).run(now, swarmId).changes;
}

/** Forgets the process groups of a run's tasks (once a recovery has killed what was ours). */
export function clearSwarmTaskGroups(store: Store, swarmId: string): void {
  statement(store, `UPDATE swarm_tasks SET pgid = NULL, pgid_started = NULL WHERE swarm_id = ?`).run(swarmId);
}

/** Records a run's end and its response; only a run still `running` changes. */
export function finishSwarmRun(
  store: Store,
  id: string,
  state: Exclude<SwarmRunState, 'running'>,
  result: string | null,
  now: number,
): boolean {
  const changed = statement(
    store,
    `UPDATE swarm_runs SET state = ?, result = ?, finished_at = ? WHERE id = ? AND state = 'running'`,
  ).run(state, result, now, id);
  return changed.changes > 0;
}

export function getSwarmRun(store: Store, id: string): SwarmRunRow | undefined {
  return statement(store, `SELECT ${RUN_COLUMNS} FROM swarm_runs WHERE id = ?`).get(id) as SwarmRunRow | undefined;
}

export function swarmTasksOf(store: Store, id: string): SwarmTaskRow[] {
  return statement(store, `SELECT ${TASK_COLUMNS} FROM swarm_tasks WHERE swarm_id = ? ORDER BY position`).all(
    id,
  ) as SwarmTaskRow[];
}

/** Runs still reading `running` (live or interrupted: the caller checks their pid). */
export function runningSwarmRuns(store: Store, repoRoot?: string): SwarmRunRow[] {
  if (repoRoot === undefined) {
    return statement(
      store,
      `SELECT ${RUN_COLUMNS} FROM swarm_runs WHERE state = 'running' ORDER BY id`,
    ).all() as SwarmRunRow[];
  }
  return statement(
    store,
    `SELECT ${RUN_COLUMNS} FROM swarm_runs WHERE state = 'running' AND repo_root = ? ORDER BY id`,
  ).all(repoRoot) as SwarmRunRow[];
}

/** Runs in a state (e.g. interrupted ones a clean-up recovers), of one repository or all. */
export function swarmRunsInState(store: Store, state: SwarmRunState, repoRoot?: string): SwarmRunRow[] {
  if (repoRoot === undefined) {
    return statement(store, `SELECT ${RUN_COLUMNS} FROM swarm_runs WHERE state = ? ORDER BY id`).all(
      state,
    ) as SwarmRunRow[];
  }
  return statement(store, `SELECT ${RUN_COLUMNS} FROM swarm_runs WHERE state = ? AND repo_root = ? ORDER BY id`).all(
    state,
    repoRoot,
  ) as SwarmRunRow[];
}
