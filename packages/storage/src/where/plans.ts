/**
 * @module where/plans
 * The WHERE conditions and `set` objects of the plan and sub-task queries, shared by
 * `src/plans.ts` (SQLite) and `src/pg/queries/plans.ts`, `plan-subtasks.ts`,
 * `subtask-claims.ts` (PostgreSQL). Status moves are guarded by the expected status.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { planSubtaskClaims, planSubtasks, plans } from '../schema';
import type { Arg, ColsOf } from './_columns';
import { eqIf } from './_common';

/** The `plans` columns these builders read. */
export type PlanCols = ColsOf<typeof plans, 'repoRoot' | 'slug' | 'status'>;

/** The `planSubtasks` columns these builders read. */
export type SubtaskCols = ColsOf<
  typeof planSubtasks,
  'id' | 'planId' | 'subtaskIndex' | 'status' | 'claimedBySessionId' | 'specRowId'
>;

/** Plans of a repository and/or in a status; none given is every plan. */
export const plansMatching = (p: PlanCols, filter: { readonly repoRoot?: string; readonly status?: string }) =>
  and(eqIf(p.repoRoot, filter.repoRoot), eqIf(p.status, filter.status));

/** The selection of a sub-task with its plan's slug and repository; each dialect keeps its column types. */
export const placedColumnsOf = <S, P extends ColsOf<typeof plans, 'slug' | 'repoRoot'>>(
  subtask: S,
  plan: P,
): { subtask: S; planSlug: P['slug']; repoRoot: P['repoRoot'] } => ({
  subtask,
  planSlug: plan.slug,
  repoRoot: plan.repoRoot,
});

/** The plan of this slug in a repository (values or placeholders). */
export const planNamed = (p: PlanCols, repoRoot: Arg<string>, slug: Arg<string>) =>
  and(eq(p.repoRoot, repoRoot), eq(p.slug, slug));

export const subtaskWhere = {
  /** A plan's sub-task by index (values or placeholders). */
  at: (s: SubtaskCols, planId: Arg<number>, subtaskIndex: Arg<number>) =>
    and(eq(s.planId, planId), eq(s.subtaskIndex, subtaskIndex)),
  /** The sub-task while the session holds it claimed. */
  heldBy: (s: SubtaskCols, id: number, sessionId: string) =>
    and(eq(s.id, id), eq(s.status, 'claimed'), eq(s.claimedBySessionId, sessionId)),
  /** The sub-tasks a session holds claimed. */
  claimedBy: (s: SubtaskCols, sessionId: string) => and(eq(s.claimedBySessionId, sessionId), eq(s.status, 'claimed')),
  /** Sub-tasks bound to a spec row in a repository (joined to `plans`). */
  ofSpecRow: (s: SubtaskCols, p: PlanCols, repoRoot: string, specRowId: string) =>
    and(eq(s.specRowId, specRowId), eq(p.repoRoot, repoRoot)),
  /** These sub-tasks, while blocked. */
  blockedIds: (s: SubtaskCols, ids: readonly number[]) => and(inArray(s.id, [...ids]), eq(s.status, 'blocked')),
  /** The active claim row of a sub-task. */
  activeClaim: (c: ColsOf<typeof planSubtaskClaims, 'subtaskId' | 'state'>, subtaskId: number) =>
    and(eq(c.subtaskId, subtaskId), eq(c.state, 'active')),
};

/** The `set` giving a claimed sub-task back: available, nobody's. */
export const releasedSubtask = {
  status: 'available',
  claimedBySessionId: null,
  claimedByAgent: null,
  claimedAt: null,
} as const;
