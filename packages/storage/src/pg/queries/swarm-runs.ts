/**
 * @module pg/queries/swarm-runs
 * Swarm runs and their tasks of `src/swarm-runs.ts` on PostgreSQL, as drizzle builders
 * (the same text on both dialects; bigint columns read as numbers). A run id is taken
 * by `INSERT ... ON CONFLICT DO NOTHING`; run ids sort in byte order (`COLLATE "C"`) as
 * on SQLite.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SwarmRunRow, SwarmRunState, SwarmTaskRow, SwarmTaskUpdate } from '../../swarm-runs';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed } from './_common';

const { swarmRuns, swarmTasks } = pgTables;
const BY_ID = sql`${swarmRuns.id} COLLATE "C"`;

/** Inserts a running run and its pending tasks; false when the id is taken. */
export async function insertSwarmRun(
  store: PgStore,
  run: Omit<SwarmRunRow, 'state' | 'result' | 'finishedAt'>,
  tasks: readonly { readonly name: string; readonly branch: string }[],
): Promise<boolean> {
  const db = pgDb(store);
  // Named columns only, as SQLite's statement: a caller's extra fields are not written.
  const { id, repoRoot, baseRef, baseCommit, mergeStrategy, mergeTarget, pid, pidStarted, spec, createdAt } = run;
  const values = { id, repoRoot, baseRef, baseCommit, mergeStrategy, mergeTarget, pid, pidStarted, spec, createdAt };
  const inserted = await db
    .insert(swarmRuns)
    .values({ ...values, state: 'running' })
    .onConflictDoNothing({ target: swarmRuns.id });
  if (changed(inserted) === 0) return false;
  if (tasks.length === 0) return true;
  const rows = tasks.map((task, i) => ({
    swarmId: run.id,
    name: task.name,
    position: i,
    state: 'pending',
    branch: task.branch,
    updatedAt: run.createdAt,
  }));
  await db.insert(swarmTasks).values(rows);
  return true;
}

export async function updateSwarmTask(
  store: PgStore,
  swarmId: string,
  task: SwarmTaskUpdate,
  now: number,
): Promise<void> {
  const { name, state, workspaceId, exitCode, elapsedMs, startCommit, pgid, pgidStarted } = task;
  await pgDb(store)
    .update(swarmTasks)
    .set({ state, workspaceId, exitCode, elapsedMs, startCommit, pgid, pgidStarted, updatedAt: now })
    .where(and(eq(swarmTasks.swarmId, swarmId), eq(swarmTasks.name, name)));
}

/** Marks a dead run's unfinished tasks `interrupted`, keeping their process groups; how many changed. */
export async function interruptSwarmTasks(store: PgStore, swarmId: string, now: number): Promise<number> {
  const result = await pgDb(store)
    .update(swarmTasks)
    .set({ state: 'interrupted', updatedAt: now })
    .where(and(eq(swarmTasks.swarmId, swarmId), inArray(swarmTasks.state, ['pending', 'waiting', 'executing'])));
  return changed(result);
}

/** Forgets the process groups of a run's tasks (once a recovery has killed what was ours). */
export async function clearSwarmTaskGroups(store: PgStore, swarmId: string): Promise<void> {
  await pgDb(store).update(swarmTasks).set({ pgid: null, pgidStarted: null }).where(eq(swarmTasks.swarmId, swarmId));
}

/** Records a run's end and its response; only a run still `running` changes. */
export async function finishSwarmRun(
  store: PgStore,
  id: string,
  state: Exclude<SwarmRunState, 'running'>,
  result: string | null,
  now: number,
): Promise<boolean> {
  const done = await pgDb(store)
    .update(swarmRuns)
    .set({ state, result, finishedAt: now })
    .where(and(eq(swarmRuns.id, id), eq(swarmRuns.state, 'running')));
  return changed(done) > 0;
}

export async function getSwarmRun(store: PgStore, id: string): Promise<SwarmRunRow | undefined> {
  const rows = await pgDb(store).select().from(swarmRuns).where(eq(swarmRuns.id, id)).limit(1);
  return rows[0] as SwarmRunRow | undefined;
}

export async function swarmTasksOf(store: PgStore, id: string): Promise<SwarmTaskRow[]> {
  const rows = await pgDb(store)
    .select()
    .from(swarmTasks)
    .where(eq(swarmTasks.swarmId, id))
    .orderBy(asc(swarmTasks.position));
  return rows as SwarmTaskRow[];
}

/** Runs still reading `running` (live or interrupted: the caller checks their pid). */
export async function runningSwarmRuns(store: PgStore, repoRoot?: string): Promise<SwarmRunRow[]> {
  return swarmRunsInState(store, 'running', repoRoot);
}

/** Runs in a state (e.g. interrupted ones a clean-up recovers), of one repository or all. */
export async function swarmRunsInState(
  store: PgStore,
  state: SwarmRunState,
  repoRoot?: string,
): Promise<SwarmRunRow[]> {
  const repo = repoRoot === undefined ? undefined : eq(swarmRuns.repoRoot, repoRoot);
  const rows = await pgDb(store)
    .select()
    .from(swarmRuns)
    .where(and(eq(swarmRuns.state, state), repo))
    .orderBy(BY_ID);
  return rows as SwarmRunRow[];
}
