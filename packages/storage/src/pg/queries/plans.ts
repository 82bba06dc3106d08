/**
 * @module pg/queries/plans
 * Plan rows (`src/plans.ts`) on PostgreSQL: `acceptance_criteria` is JSON text here
 * (as SQLite stores it), encoded on write and decoded on read. Archiving is a guarded
 * update on `status = 'active'`. Sub-task rows: plan-subtasks.ts; the sub-task claim
 * path: subtask-claims.ts.
 */
import { asc, count, desc, eq } from 'drizzle-orm';
import type { NewPlan, Plan, PlanFilter } from '../../plans';
import { oneIn } from '../../where/_common';
import { planNamed, plansMatching } from '../../where/plans';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed, fromJson, toJson } from './_common';

const { plans } = pgTables;

const planOf = (row: unknown): Plan => {
  const r = row as Plan;
  return { ...r, acceptanceCriteria: fromJson(r.acceptanceCriteria) };
};
const first = (rows: unknown[]): Plan | undefined => (rows[0] === undefined ? undefined : planOf(rows[0]));

export async function insertPlan(store: PgStore, plan: NewPlan, now: number): Promise<Plan> {
  const rows = await pgDb(store)
    .insert(plans)
    .values({ ...plan, acceptanceCriteria: toJson([...plan.acceptanceCriteria]), createdAt: now, status: 'active' })
    .returning();
  return planOf(rows[0]);
}

export async function getPlan(store: PgStore, id: number): Promise<Plan | undefined> {
  return first(await pgDb(store).select().from(plans).where(eq(plans.id, id)).limit(1));
}

export async function findPlan(store: PgStore, repoRoot: string, slug: string): Promise<Plan | undefined> {
  return first(
    await pgDb(store)
      .select()
      .from(plans)
      .where(planNamed(plans, repoRoot, slug))
      .limit(1),
  );
}

/** Plans with this slug in any repository (a slug is unique per repository only). */
export async function plansWithSlug(store: PgStore, slug: string): Promise<Plan[]> {
  const rows = await pgDb(store).select().from(plans).where(eq(plans.slug, slug)).orderBy(asc(plans.id));
  return rows.map(planOf);
}

/** Newest first. */
export async function listPlans(store: PgStore, filter: PlanFilter = {}): Promise<Plan[]> {
  const query = pgDb(store)
    .select()
    .from(plans)
    .where(plansMatching(plans, filter))
    .orderBy(desc(plans.createdAt), desc(plans.id));
  const rows = filter.limit === undefined ? await query : await query.limit(filter.limit);
  return rows.map(planOf);
}

/** Marks a plan archived (its spec change landed). False when it already was. */
export async function markPlanArchived(store: PgStore, id: number, now: number): Promise<boolean> {
  const result = await pgDb(store)
    .update(plans)
    .set({ status: 'archived', archivedAt: now })
    .where(oneIn(plans, id, 'active'));
  return changed(result) > 0;
}

export async function countPlans(store: PgStore): Promise<number> {
  const [row] = await pgDb(store).select({ n: count() }).from(plans);
  return Number(row?.n ?? 0);
}
