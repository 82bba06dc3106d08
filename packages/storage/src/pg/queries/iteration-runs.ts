/**
 * @module pg/queries/iteration-runs
 * Iteration runs and their iterations of `src/iteration-runs.ts` on PostgreSQL, as
 * drizzle builders (bigint columns read as numbers, `improved` is a boolean column).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { IterationRow, IterationRunRow } from '../../iteration-runs';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed } from './_common';

const { iterationRuns, iterations } = pgTables;

/** Inserts a running run; false when the id is taken. */
export async function insertIterationRun(
  store: PgStore,
  run: Pick<IterationRunRow, 'id' | 'name' | 'repoRoot' | 'config' | 'maxIterations' | 'pid' | 'pidStarted'> & {
    readonly createdAt: number;
  },
): Promise<boolean> {
  const { id, name, repoRoot, config, maxIterations, pid, pidStarted, createdAt } = run;
  const values = { id, name, repoRoot, config, maxIterations, pid, pidStarted, createdAt, updatedAt: createdAt };
  const result = await pgDb(store)
    .insert(iterationRuns)
    .values({ ...values, state: 'running' })
    .onConflictDoNothing({ target: iterationRuns.id });
  return changed(result) > 0;
}

export async function getIterationRun(store: PgStore, id: string): Promise<IterationRunRow | undefined> {
  const rows = await pgDb(store).select().from(iterationRuns).where(eq(iterationRuns.id, id)).limit(1);
  return rows[0] as IterationRunRow | undefined;
}

export async function iterationsOf(store: PgStore, runId: string): Promise<IterationRow[]> {
  const rows = await pgDb(store)
    .select()
    .from(iterations)
    .where(eq(iterations.runId, runId))
    .orderBy(asc(iterations.number));
  return rows as IterationRow[];
}

/** Takes a stopped or dead run back for a resume: state running, the new driver, a new budget. */
export async function reopenIterationRun(
  store: PgStore,
  id: string,
  change: { readonly pid: number; readonly pidStarted: number | null; readonly maxIterations: number },
  now: number,
): Promise<void> {
  const db = pgDb(store);
  const { pid, pidStarted, maxIterations } = change;
  await db
    .update(iterationRuns)
    .set({ state: 'running', reason: null, finishedAt: null, pid, pidStarted, maxIterations, updatedAt: now })
    .where(eq(iterationRuns.id, id));
  // An iteration the dead driver left running never finished: it is done again.
  await db.delete(iterations).where(and(eq(iterations.runId, id), eq(iterations.state, 'running')));
}

export async function startIteration(store: PgStore, runId: string, number: number, now: number): Promise<void> {
  await pgDb(store)
    .insert(iterations)
    .values({ runId, number, state: 'running', startedAt: now })
    .onConflictDoUpdate({ target: [iterations.runId, iterations.number], set: { state: 'running', startedAt: now } });
}

export async function finishIteration(
  store: PgStore,
  runId: string,
  it: Pick<IterationRow, 'number' | 'state' | 'exitCode' | 'score' | 'improved' | 'output'>,
  bestScore: number | null,
  now: number,
): Promise<void> {
  const db = pgDb(store);
  const { state, exitCode, score, improved, output } = it;
  await db
    .update(iterations)
    .set({ state, exitCode, score, improved, output, finishedAt: now })
    .where(and(eq(iterations.runId, runId), eq(iterations.number, it.number)));
  await db.update(iterationRuns).set({ bestScore, updatedAt: now }).where(eq(iterationRuns.id, runId));
}

export async function stopIterationRun(store: PgStore, id: string, reason: string, now: number): Promise<void> {
  await pgDb(store)
    .update(iterationRuns)
    .set({ state: 'stopped', reason, finishedAt: now, updatedAt: now })
    .where(eq(iterationRuns.id, id));
}
