/**
 * @module pg/queries/plan-subtasks
 * Plan sub-task rows (`src/plans.ts`) on PostgreSQL: `file_scope` and `depends_on` are
 * JSON text here (as SQLite stores them), encoded on write and decoded on read.
 * Unblocking is a guarded update on `status = 'blocked'`.
 */
import { asc, count, eq, inArray } from 'drizzle-orm';
import type { NewSubtask, PlacedSubtask, PlanSubtask, SubtaskStatus } from '../../plans';
import { eqIf } from '../../where/_common';
import { placedColumnsOf, subtaskWhere } from '../../where/plans';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed, subtaskOf, toJson } from './_common';

const { planSubtasks, plans } = pgTables;

export async function insertSubtask(store: PgStore, subtask: NewSubtask): Promise<PlanSubtask> {
  const rows = await pgDb(store)
    .insert(planSubtasks)
    .values({ ...subtask, fileScope: toJson([...subtask.fileScope]), dependsOn: toJson([...subtask.dependsOn]) })
    .returning();
  return subtaskOf(rows[0]);
}

export async function getSubtask(
  store: PgStore,
  planId: number,
  subtaskIndex: number,
): Promise<PlanSubtask | undefined> {
  const [row] = await pgDb(store)
    .select()
    .from(planSubtasks)
    .where(subtaskWhere.at(planSubtasks, planId, subtaskIndex))
    .limit(1);
  return row === undefined ? undefined : subtaskOf(row);
}

/** The sub-tasks of the given plans, by plan then index. */
export async function subtasksOfPlans(store: PgStore, planIds: readonly number[]): Promise<PlanSubtask[]> {
  if (planIds.length === 0) return [];
  const rows = await pgDb(store)
    .select()
    .from(planSubtasks)
    .where(inArray(planSubtasks.planId, [...planIds]))
    .orderBy(asc(planSubtasks.planId), asc(planSubtasks.subtaskIndex));
  return rows.map(subtaskOf);
}

const placed = placedColumnsOf(planSubtasks, plans);
const placedOf = (r: { subtask: unknown; planSlug: unknown; repoRoot: unknown }): PlacedSubtask => ({
  ...subtaskOf(r.subtask),
  planSlug: r.planSlug as string,
  repoRoot: r.repoRoot as string,
});

/** Sub-tasks bound to a spec row (e.g. "T5") in a repository, oldest first. */
export async function subtasksForSpecRow(
  store: PgStore,
  repoRoot: string,
  specRowId: string,
): Promise<PlacedSubtask[]> {
  const rows = await pgDb(store)
    .select(placed)
    .from(planSubtasks)
    .innerJoin(plans, eq(plans.id, planSubtasks.planId))
    .where(subtaskWhere.ofSpecRow(planSubtasks, plans, repoRoot, specRowId))
    .orderBy(asc(planSubtasks.id));
  return rows.map(placedOf);
}

/** The sub-tasks a session holds claimed right now, oldest claim first. */
export async function claimedSubtasksOfSession(store: PgStore, sessionId: string): Promise<PlacedSubtask[]> {
  const rows = await pgDb(store)
    .select(placed)
    .from(planSubtasks)
    .innerJoin(plans, eq(plans.id, planSubtasks.planId))
    .where(subtaskWhere.claimedBy(planSubtasks, sessionId))
    .orderBy(asc(planSubtasks.claimedAt), asc(planSubtasks.id));
  return rows.map(placedOf);
}

/** Makes blocked sub-tasks available (their dependencies completed). Returns how many changed. */
export async function unblockSubtasks(store: PgStore, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await pgDb(store)
    .update(planSubtasks)
    .set({ status: 'available' })
    .where(subtaskWhere.blockedIds(planSubtasks, ids));
  return changed(result);
}

export async function countSubtasks(store: PgStore, status?: SubtaskStatus): Promise<number> {
  const [row] = await pgDb(store).select({ n: count() }).from(planSubtasks).where(eqIf(planSubtasks.status, status));
  return Number(row?.n ?? 0);
}
