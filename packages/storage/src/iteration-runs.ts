/**
 * @module iteration-runs
 * Iteration runs (`colony swarm iterate`) and their iterations (see
 * schema/workflows.ts). An iteration row is written when it starts and finished with
 * its exit code and probe score, so a resume knows the last finished one. JSON columns
 * stay JSON text here.
 */
import { type Store, statement } from './_store';

export interface IterationRunRow {
  readonly id: string;
  readonly name: string;
  readonly repoRoot: string;
  readonly config: string;
  readonly maxIterations: number;
  readonly state: string;
  readonly reason: string | null;
  readonly bestScore: number | null;
  readonly pid: number | null;
  readonly pidStarted: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly finishedAt: number | null;
}

export interface IterationRow {
  readonly runId: string;
  readonly number: number;
  readonly state: string;
  readonly exitCode: number | null;
  readonly score: number | null;
  readonly improved: boolean;
  readonly output: string | null;
  readonly startedAt: number;
  readonly finishedAt: number | null;
}

const RUN_COLUMNS = `id, name, repo_root AS repoRoot, config, max_iterations AS maxIterations, state, reason,
  best_score AS bestScore, pid, pid_started AS pidStarted, created_at AS createdAt, updated_at AS updatedAt,
  finished_at AS finishedAt`;
const ITERATION_COLUMNS = `run_id AS runId, number, state, exit_code AS exitCode, score, improved, output,
  started_at AS startedAt, finished_at AS finishedAt`;

/** Inserts a running run; false when the id is taken. */
export function insertIterationRun(
  store: Store,
  run: Pick<IterationRunRow, 'id' | 'name' | 'repoRoot' | 'config' | 'maxIterations' | 'pid' | 'pidStarted'> & {
    readonly createdAt: number;
  },
): boolean {
  return (
    statement(
      store,
      `INSERT INTO iteration_runs (id, name, repo_root, config, max_iterations, state, pid, pid_started, created_at,
         updated_at)
       VALUES (@id, @name, @repoRoot, @config, @maxIterations, 'running', @pid, @pidStarted, @createdAt, @createdAt)
       ON CONFLICT (id) DO NOTHING`,
    ).run(run).changes > 0
  );
}

export function getIterationRun(store: Store, id: string): IterationRunRow | undefined {
  return statement(store, `SELECT ${RUN_COLUMNS} FROM iteration_runs WHERE id = ?`).get(id) as
    | IterationRunRow
    | undefined;
}

export function iterationsOf(store: Store, runId: string): IterationRow[] {
  const rows = statement(store, `SELECT ${ITERATION_COLUMNS} FROM iterations WHERE run_id = ? ORDER BY number`).all(
    runId,
  ) as (Omit<IterationRow, 'improved'> & { improved: number })[];
  return rows.map((r) => ({ ...r, improved: r.improved === 1 }));
}

/** Takes a stopped or dead run back for a resume: state running, the new driver, a new budget. */
export function reopenIterationRun(
  store: Store,
  id: string,
  change: { readonly pid: number; readonly pidStarted: number | null; readonly maxIterations: number },
  now: number,
): void {
  statement(
    store,
    `UPDATE iteration_runs SET state = 'running', reason = NULL, finished_at = NULL, pid = @pid,
       pid_started = @pidStarted, max_iterations = @maxIterations, updated_at = @now
     WHERE id = @id`,
  ).run({ id, ...change, now });
  // An iteration the dead driver left running never finished: it is done again.
  statement(store, `DELETE FROM iterations WHERE run_id = ? AND state = 'running'`).run(id);
}

export function startIteration(store: Store, runId: string, number: number, now: number): void {
  statement(
    store,
    `INSERT INTO iterations (run_id, number, state, started_at) VALUES (?, ?, 'running', ?)
     ON CONFLICT (run_id, number) DO UPDATE SET state = 'running', started_at = excluded.started_at`,
  ).run(runId, number, now);
}

export function finishIteration(
  store: Store,
  runId: string,
  it: Pick<IterationRow, 'number' | 'state' | 'exitCode' | 'score' | 'improved' | 'output'>,
  bestScore: number | null,
  now: number,
): void {
  statement(
    store,
    `UPDATE iterations SET state = @state, exit_code = @exitCode, score = @score, improved = @improved,
       output = @output, finished_at = @now
     WHERE run_id = @runId AND number = @number`,
  ).run({ ...it, improved: it.improved ? 1 : 0, runId, now });
  statement(store, `UPDATE iteration_runs SET best_score = ?, updated_at = ? WHERE id = ?`).run(bestScore, now, runId);
}

export function stopIterationRun(store: Store, id: string, reason: string, now: number): void {
  statement(
    store,
    `UPDATE iteration_runs SET state = 'stopped', reason = ?, finished_at = ?, updated_at = ? WHERE id = ?`,
  ).run(reason, now, now, id);
}
