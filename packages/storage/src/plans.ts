/**
 * @module plans
 * Queries for published plans, their sub-tasks and the claims on them. A sub-task's
 * status moves blocked -> available -> claimed -> completed (a released claim goes back
 * to available); each move is a guarded UPDATE on the expected status, so of many
 * processes racing for one sub-task exactly one changes the row. The partial unique
 * index `plan_subtask_claims_active_uq` keeps at most one active claim per sub-task.
 * Every function here is a plain statement; callers run them inside `store.write`.
 */
import { asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { dbOf, prepared, type Store } from './_store';
import { planSubtaskClaims, planSubtasks, plans } from './schema';
import { eqIf, oneIn } from './where/_common';
import { placedColumnsOf, planNamed, plansMatching, releasedSubtask, subtaskWhere } from './where/plans';

export type Plan = typeof plans.$inferSelect;
export type PlanSubtask = typeof planSubtasks.$inferSelect;
export type PlanSubtaskClaim = typeof planSubtaskClaims.$inferSelect;
export type PlanStatus = 'active' | 'archived';
export type SubtaskStatus = 'available' | 'claimed' | 'completed' | 'blocked';
export type SubtaskClaimState = 'active' | 'completed' | 'released';

export interface NewPlan {
  readonly repoRoot: string;
  readonly slug: string;
  readonly title: string;
  readonly problem: string;
  readonly acceptanceCriteria: readonly string[];
  readonly specTaskId: number;
  readonly specChangePath: string | null;
  readonly autoArchive: boolean;
  readonly createdBy: string;
  readonly createdByAgent: string;
  readonly observationId: number;
}

export function insertPlan(store: Store, plan: NewPlan, now: number): Plan {
  return dbOf(store)
    .insert(plans)
    .values({ ...plan, acceptanceCriteria: [...plan.acceptanceCriteria], createdAt: now, status: 'active' })
    .returning()
    .get();
}

export function getPlan(store: Store, id: number): Plan | undefined {
  return dbOf(store).select().from(plans).where(eq(plans.id, id)).get();
}

export function findPlan(store: Store, repoRoot: string, slug: string): Plan | undefined {
  return prepared(store, 'findPlan', (db) =>
    db
      .select()
      .from(plans)
      .where(planNamed(plans, sql.placeholder('repoRoot'), sql.placeholder('slug')))
      .prepare(),
  ).get({ repoRoot, slug });
}

/** Plans with this slug in any repository (a slug is unique per repository only). */
export function plansWithSlug(store: Store, slug: string): Plan[] {
  return prepared(store, 'plansWithSlug', (db) =>
    db
      .select()
      .from(plans)
      .where(eq(plans.slug, sql.placeholder('slug')))
      .orderBy(asc(plans.id))
      .prepare(),
  ).all({ slug });
}

export interface PlanFilter {
  readonly repoRoot?: string;
  readonly status?: PlanStatus;
  /** Most plans returned; omitted means all. */
  readonly limit?: number;
}

/** Newest first. */
export function listPlans(store: Store, filter: PlanFilter = {}): Plan[] {
  const query = dbOf(store)
    .select()
    .from(plans)
    .where(plansMatching(plans, filter))
    .orderBy(desc(plans.createdAt), desc(plans.id));
  return filter.limit === undefined ? query.all() : query.limit(filter.limit).all();
}

/** Marks a plan archived (its spec change landed). False when it already was. */
export function markPlanArchived(store: Store, id: number, now: number): boolean {
  return (
    dbOf(store)
      .update(plans)
      .set({ status: 'archived', archivedAt: now })
      .where(oneIn(plans, id, 'active'))
      .run().changes > 0
  );
}

export interface NewSubtask {
  readonly planId: number;
  readonly subtaskIndex: number;
  readonly title: string;
  readonly description: string;
  readonly fileScope: readonly string[];
  readonly dependsOn: readonly number[];
  readonly capabilityHint: string | null;
  readonly specRowId: string | null;
  readonly taskId: number;
  readonly branch: string;
  readonly waveIndex: number;
  /** available when it has no dependencies, blocked otherwise. */
  readonly status: 'available' | 'blocked';
  readonly observationId: number;
}

export function insertSubtask(store: Store, subtask: NewSubtask): PlanSubtask {
  return dbOf(store)
    .insert(planSubtasks)
    .values({ ...subtask, fileScope: [...subtask.fileScope], dependsOn: [...subtask.dependsOn] })
    .returning()
    .get();
}

export function getSubtask(store: Store, planId: number, subtaskIndex: number): PlanSubtask | undefined {
  return prepared(store, 'getSubtask', (db) =>
    db
      .select()
      .from(planSubtasks)
      .where(subtaskWhere.at(planSubtasks, sql.placeholder('planId'), sql.placeholder('subtaskIndex')))
      .prepare(),
  ).get({ planId, subtaskIndex });
}

/** The sub-tasks of the given plans, by plan then index. */
export function subtasksOfPlans(store: Store, planIds: readonly number[]): PlanSubtask[] {
  if (planIds.length === 0) return [];
  return dbOf(store)
    .select()
    .from(planSubtasks)
    .where(inArray(planSubtasks.planId, [...planIds]))
    .orderBy(asc(planSubtasks.planId), asc(planSubtasks.subtaskIndex))
    .all();
}

/** A sub-task with the slug and repository of its plan. */
export interface PlacedSubtask extends PlanSubtask {
  readonly planSlug: string;
  readonly repoRoot: string;
}

/** Sub-tasks bound to a spec row (e.g. "T5") in a repository, oldest first. */
export function subtasksForSpecRow(store: Store, repoRoot: string, specRowId: string): PlacedSubtask[] {
  return dbOf(store)
    .select(placedColumnsOf(planSubtasks, plans))
    .from(planSubtasks)
    .innerJoin(plans, eq(plans.id, planSubtasks.planId))
    .where(subtaskWhere.ofSpecRow(planSubtasks, plans, repoRoot, specRowId))
    .orderBy(asc(planSubtasks.id))
    .all()
    .map((r) => ({ ...r.subtask, planSlug: r.planSlug, repoRoot: r.repoRoot }));
}

/** The sub-tasks a session holds claimed right now, oldest claim first. */
export function claimedSubtasksOfSession(store: Store, sessionId: string): PlacedSubtask[] {
  return dbOf(store)
    .select(placedColumnsOf(planSubtasks, plans))
    .from(planSubtasks)
    .innerJoin(plans, eq(plans.id, planSubtasks.planId))
    .where(subtaskWhere.claimedBy(planSubtasks, sessionId))
    .orderBy(asc(planSubtasks.claimedAt), asc(planSubtasks.id))
    .all()
    .map((r) => ({ ...r.subtask, planSlug: r.planSlug, repoRoot: r.repoRoot }));
}

export interface SubtaskClaimer {
  readonly sessionId: string;
  readonly agent: string;
  /** The plan-subtask-claim observation recording the claim. */
  readonly observationId: number;
}

/**
 * Whether the sub-task is still available, read inside a write before a claim writes
 * anything. SQLite's write lock already keeps other claimers out; the PostgreSQL twin
 * locks the row until the transaction ends, so of claimers racing, the others wait
 * here for the first to commit and then find it taken without writing.
 */
export function holdAvailableSubtask(store: Store, subtaskId: number): boolean {
  const rows = dbOf(store)
    .select({ id: planSubtasks.id })
    .from(planSubtasks)
    .where(oneIn(planSubtasks, subtaskId, 'available'))
    .all();
  return rows.length > 0;
}

/**
 * Claims an available sub-task: the guarded update (available -> claimed) and the
 * active claim row. Returns false, changing nothing, when the sub-task is not available
 * any more (someone else won the race, or it is blocked or completed).
 */
export function claimSubtask(store: Store, subtaskId: number, claimer: SubtaskClaimer, now: number): boolean {
  const changed = prepared(store, 'claimSubtask', (db) =>
    db
      .update(planSubtasks)
      .set({
        status: 'claimed',
        claimedBySessionId: sql`${sql.placeholder('sessionId')}`,
        claimedByAgent: sql`${sql.placeholder('agent')}`,
        claimedAt: sql`${sql.placeholder('now')}`,
      })
      .where(oneIn(planSubtasks, sql.placeholder('id'), 'available'))
      .prepare(),
  ).run({ id: subtaskId, sessionId: claimer.sessionId, agent: claimer.agent, now }).changes;
  if (changed === 0) return false;
  dbOf(store)
    .insert(planSubtaskClaims)
    .values({
      subtaskId,
      sessionId: claimer.sessionId,
      agent: claimer.agent,
      state: 'active',
      claimedAt: now,
      observationId: claimer.observationId,
    })
    .run();
  return true;
}

/**
 * Completes a sub-task the session holds (claimed -> completed) and closes its active
 * claim row. Returns false, changing nothing, when the session does not hold it claimed.
 */
export function completeSubtask(store: Store, subtaskId: number, sessionId: string, now: number): boolean {
  const changed = dbOf(store)
    .update(planSubtasks)
    .set({ status: 'completed', completedAt: now })
    .where(subtaskWhere.heldBy(planSubtasks, subtaskId, sessionId))
    .run().changes;
  if (changed === 0) return false;
  endActiveClaim(store, subtaskId, 'completed', now);
  return true;
}

/**
 * Gives a claimed sub-task back (claimed -> available): for rescuing a stranded claim.
 * Returns false when it was not claimed.
 */
export function releaseSubtaskClaim(store: Store, subtaskId: number, now: number): boolean {
  const changed = dbOf(store)
    .update(planSubtasks)
    .set(releasedSubtask)
    .where(oneIn(planSubtasks, subtaskId, 'claimed'))
    .run().changes;
  if (changed === 0) return false;
  endActiveClaim(store, subtaskId, 'released', now);
  return true;
}

function endActiveClaim(store: Store, subtaskId: number, state: 'completed' | 'released', now: number): void {
  dbOf(store)
    .update(planSubtaskClaims)
    .set({ state, endedAt: now })
    .where(subtaskWhere.activeClaim(planSubtaskClaims, subtaskId))
    .run();
}

/** Makes blocked sub-tasks available (their dependencies completed). Returns how many changed. */
export function unblockSubtasks(store: Store, ids: readonly number[]): number {
  if (ids.length === 0) return 0;
  return dbOf(store)
    .update(planSubtasks)
    .set({ status: 'available' })
    .where(subtaskWhere.blockedIds(planSubtasks, ids))
    .run().changes;
}

/** The claim rows of a sub-task, oldest first: its claim history. */
export function subtaskClaims(store: Store, subtaskId: number): PlanSubtaskClaim[] {
  return dbOf(store)
    .select()
    .from(planSubtaskClaims)
    .where(eq(planSubtaskClaims.subtaskId, subtaskId))
    .orderBy(asc(planSubtaskClaims.id))
    .all();
}

export function countPlans(store: Store): number {
  return dbOf(store).select({ n: count() }).from(plans).get()?.n ?? 0;
}

export function countSubtasks(store: Store, status?: SubtaskStatus): number {
  return dbOf(store).select({ n: count() }).from(planSubtasks).where(eqIf(planSubtasks.status, status)).get()?.n ?? 0;
}

export function countSubtaskClaims(store: Store, state?: SubtaskClaimState): number {
  return (
    dbOf(store).select({ n: count() }).from(planSubtaskClaims).where(eqIf(planSubtaskClaims.state, state)).get()?.n ?? 0
  );
}
