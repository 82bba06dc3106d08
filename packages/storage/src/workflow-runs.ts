/**
 * @module workflow-runs
 * Workflow runs and their stages (see schema/workflows.ts). Transitions are guarded
 * updates: a stage changes only from the states the caller names, so two processes
 * acting on one run (an `approve` racing a `cancel`) cannot both win. JSON columns stay
 * JSON text here.
 */
import { type Store, statement } from './_store';
import { definedOnly } from './where/_common';

export interface WorkflowRunRow {
  readonly id: string;
  readonly name: string;
  readonly repoRoot: string;
  readonly definition: string;
  readonly inputs: string;
  readonly state: string;
  readonly pid: number | null;
  readonly pidStarted: number | null;
  readonly feedback: string | null;
  readonly error: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly finishedAt: number | null;
}

export interface WorkflowStageRow {
  readonly runId: string;
  readonly name: string;
  readonly position: number;
  readonly type: string;
  readonly state: string;
  readonly attempts: number;
  readonly exitCode: number | null;
  readonly output: string | null;
  readonly pgid: number | null;
  readonly pgidStarted: number | null;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  readonly updatedAt: number;
}

const RUN_COLUMNS = `id, name, repo_root AS repoRoot, definition, inputs, state, pid, pid_started AS pidStarted,
  feedback, error, created_at AS createdAt, updated_at AS updatedAt, finished_at AS finishedAt`;
const STAGE_COLUMNS = `run_id AS runId, name, position, type, state, attempts, exit_code AS exitCode, output,
  pgid, pgid_started AS pgidStarted, started_at AS startedAt, finished_at AS finishedAt, updated_at AS updatedAt`;

/** Inserts a pending run and its pending stages; false when the id is taken. */
export function insertWorkflowRun(
  store: Store,
  run: Pick<WorkflowRunRow, 'id' | 'name' | 'repoRoot' | 'definition' | 'inputs' | 'createdAt'>,
  stages: readonly { readonly name: string; readonly type: string }[],
): boolean {
  const inserted = statement(
    store,
    `INSERT INTO workflow_runs (id, name, repo_root, definition, inputs, state, created_at, updated_at)
     VALUES (@id, @name, @repoRoot, @definition, @inputs, 'pending', @createdAt, @createdAt)
     ON CONFLICT (id) DO NOTHING`,
  ).run(run);
  if (inserted.changes === 0) return false;
  const insertStage = statement(
    store,
    `INSERT INTO workflow_stages (run_id, name, position, type, state, updated_at) VALUES (?, ?, ?, ?, 'pending', ?)`,
  );
  stages.forEach((stage, i) => {
    insertStage.run(run.id, stage.name, i, stage.type, run.createdAt);
  });
  return true;
}

export function getWorkflowRun(store: Store, id: string): WorkflowRunRow | undefined {
  return statement(store, `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE id = ?`).get(id) as
    | WorkflowRunRow
    | undefined;
}

/** Runs, newest first (optionally of one repository). */
export function listWorkflowRuns(store: Store, repoRoot?: string, limit = 50): WorkflowRunRow[] {
  if (repoRoot === undefined) {
    return statement(store, `SELECT ${RUN_COLUMNS} FROM workflow_runs ORDER BY created_at DESC, id DESC LIMIT ?`).all(
      limit,
    ) as WorkflowRunRow[];
  }
  return statement(
    store,
    `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE repo_root = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
  ).all(repoRoot, limit) as WorkflowRunRow[];
}

export function workflowStagesOf(store: Store, runId: string): WorkflowStageRow[] {
  return statement(store, `SELECT ${STAGE_COLUMNS} FROM workflow_stages WHERE run_id = ? ORDER BY position`).all(
    runId,
  ) as WorkflowStageRow[];
}

/** A run's next state, with its driver, error, feedback or end when they change. */
export interface WorkflowRunChange {
  readonly state: string;
  readonly pid?: number | null;
  readonly pidStarted?: number | null;
  readonly error?: string | null;
  readonly feedback?: string | null;
  readonly finishedAt?: number | null;
}

/** What a stage change may set; undefined fields keep their value. */
export type WorkflowStageChange = Partial<Omit<WorkflowStageRow, 'runId' | 'name' | 'position' | 'type' | 'updatedAt'>>;

/** Sets a run's state (and its driver, error, feedback, end) when it is in one of `from`. */
export function setWorkflowRunState(
  store: Store,
  id: string,
  from: readonly string[],
  change: WorkflowRunChange,
  now: number,
): boolean {
  const run = getWorkflowRun(store, id);
  if (!run || !from.includes(run.state)) return false;
  const next = {
    id,
    prev: run.state,
    state: change.state,
    pid: change.pid === undefined ? run.pid : change.pid,
    pidStarted: change.pidStarted === undefined ? run.pidStarted : change.pidStarted,
    error: change.error === undefined ? run.error : change.error,
    feedback: change.feedback === undefined ? run.feedback : change.feedback,
    finishedAt: change.finishedAt === undefined ? run.finishedAt : change.finishedAt,
    now,
  };
  return (
    statement(
      store,
      `UPDATE workflow_runs SET state = @state, pid = @pid, pid_started = @pidStarted, error = @error,
         feedback = @feedback, finished_at = @finishedAt, updated_at = @now
       WHERE id = @id AND state = @prev`,
    ).run(next).changes > 0
  );
}

/** Changes a stage when it is in one of `from`; undefined fields keep their value. */
export function setWorkflowStage(
  store: Store,
  runId: string,
  name: string,
  from: readonly string[],
  change: WorkflowStageChange,
  now: number,
): boolean {
  const stage = statement(store, `SELECT ${STAGE_COLUMNS} FROM workflow_stages WHERE run_id = ? AND name = ?`).get(
    runId,
    name,
  ) as WorkflowStageRow | undefined;
  if (!stage || !from.includes(stage.state)) return false;
  const merged = { ...stage, ...definedOnly(change), prev: stage.state, now };
  return (
    statement(
      store,
      `UPDATE workflow_stages SET state = @state, attempts = @attempts, exit_code = @exitCode, output = @output,
         pgid = @pgid, pgid_started = @pgidStarted, started_at = @startedAt, finished_at = @finishedAt,
         updated_at = @now
       WHERE run_id = @runId AND name = @name AND state = @prev`,
    ).run(merged).changes > 0
  );
}
