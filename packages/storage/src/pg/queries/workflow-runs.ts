/**
 * @module pg/queries/workflow-runs
 * Workflow runs and their stages of `src/workflow-runs.ts` on PostgreSQL, as drizzle
 * builders. Transitions stay guarded updates (`WHERE state = <the state read>`): under
 * READ COMMITTED a second writer re-checks the guard after the first commits, so of an
 * `approve` racing a `cancel` one wins. Runs list newest first, ties by id in byte
 * order (`COLLATE "C"`) as on SQLite.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { definedOnly } from '../../where/_common';
import type { WorkflowRunChange, WorkflowRunRow, WorkflowStageChange, WorkflowStageRow } from '../../workflow-runs';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed } from './_common';

const { workflowRuns, workflowStages } = pgTables;

/** Inserts a pending run and its pending stages; false when the id is taken. */
export async function insertWorkflowRun(
  store: PgStore,
  run: Pick<WorkflowRunRow, 'id' | 'name' | 'repoRoot' | 'definition' | 'inputs' | 'createdAt'>,
  stages: readonly { readonly name: string; readonly type: string }[],
): Promise<boolean> {
  const db = pgDb(store);
  const { id, name, repoRoot, definition, inputs, createdAt } = run;
  const inserted = await db
    .insert(workflowRuns)
    .values({ id, name, repoRoot, definition, inputs, state: 'pending', createdAt, updatedAt: createdAt })
    .onConflictDoNothing({ target: workflowRuns.id });
  if (changed(inserted) === 0) return false;
  if (stages.length === 0) return true;
  const rows = stages.map((stage, i) => ({
    runId: id,
    name: stage.name,
    position: i,
    type: stage.type,
    state: 'pending',
    updatedAt: createdAt,
  }));
  await db.insert(workflowStages).values(rows);
  return true;
}

export async function getWorkflowRun(store: PgStore, id: string): Promise<WorkflowRunRow | undefined> {
  const rows = await pgDb(store).select().from(workflowRuns).where(eq(workflowRuns.id, id)).limit(1);
  return rows[0] as WorkflowRunRow | undefined;
}

/** Runs, newest first (optionally of one repository). */
export async function listWorkflowRuns(store: PgStore, repoRoot?: string, limit = 50): Promise<WorkflowRunRow[]> {
  const rows = await pgDb(store)
    .select()
    .from(workflowRuns)
    .where(repoRoot === undefined ? undefined : eq(workflowRuns.repoRoot, repoRoot))
    .orderBy(desc(workflowRuns.createdAt), sql`${workflowRuns.id} COLLATE "C" DESC`)
    .limit(limit);
  return rows as WorkflowRunRow[];
}

export async function workflowStagesOf(store: PgStore, runId: string): Promise<WorkflowStageRow[]> {
  const rows = await pgDb(store)
    .select()
    .from(workflowStages)
    .where(eq(workflowStages.runId, runId))
    .orderBy(asc(workflowStages.position));
  return rows as WorkflowStageRow[];
}

/** Sets a run's state (and its driver, error, feedback, end) when it is in one of `from`. */
export async function setWorkflowRunState(
  store: PgStore,
  id: string,
  from: readonly string[],
  change: WorkflowRunChange,
  now: number,
): Promise<boolean> {
  const run = await getWorkflowRun(store, id);
  if (!run || !from.includes(run.state)) return false;
  const { state, pid, pidStarted, error, feedback, finishedAt } = change;
  const next = definedOnly({ pid, pidStarted, error, feedback, finishedAt });
  const result = await pgDb(store)
    .update(workflowRuns)
    .set({ ...next, state, updatedAt: now })
    .where(and(eq(workflowRuns.id, id), eq(workflowRuns.state, run.state)));
  return changed(result) > 0;
}

/** Changes a stage when it is in one of `from`; undefined fields keep their value. */
export async function setWorkflowStage(
  store: PgStore,
  runId: string,
  name: string,
  from: readonly string[],
  change: WorkflowStageChange,
  now: number,
): Promise<boolean> {
  const where = and(eq(workflowStages.runId, runId), eq(workflowStages.name, name));
  const found = await pgDb(store).select({ state: workflowStages.state }).from(workflowStages).where(where).limit(1);
  const prev = found[0]?.state as string | undefined;
  if (prev === undefined || !from.includes(prev)) return false;
  const { state, attempts, exitCode, output, pgid, pgidStarted, startedAt, finishedAt } = change;
  const next = definedOnly({ state, attempts, exitCode, output, pgid, pgidStarted, startedAt, finishedAt });
  const result = await pgDb(store)
    .update(workflowStages)
    .set({ ...next, updatedAt: now })
    .where(and(where, eq(workflowStages.state, prev)));
  return changed(result) > 0;
}
