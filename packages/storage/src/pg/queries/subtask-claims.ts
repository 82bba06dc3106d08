/**
 * @module pg/queries/subtask-claims
 * The plan sub-task claim path of `src/plans.ts` on PostgreSQL. A claim is decided by
 * the partial unique index `plan_subtask_claims_active_uq` (one active claim per
 * sub-task): `INSERT ... ON CONFLICT DO NOTHING RETURNING`, so of many transactions
 * claiming at once exactly one gets a row back and the others (which wait for it to
 * commit) get none. The winner then moves the sub-task available -> claimed with a
 * guarded UPDATE; when it was not available (blocked or completed) its row is removed
 * again and the answer is false, as on SQLite, changing nothing.
 */
import { asc, count, eq } from 'drizzle-orm';
import type { PlanSubtaskClaim, SubtaskClaimer, SubtaskClaimState } from '../../plans';
import { eqIf, oneIn } from '../../where/_common';
import { releasedSubtask, subtaskWhere } from '../../where/plans';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed } from './_common';

const { planSubtasks, planSubtaskClaims } = pgTables;

/**
 * Locks the sub-task row (FOR UPDATE) while it is available; false when it is not. A
 * claimer racing another waits here for the other's transaction, then (READ COMMITTED
 * re-reads the row) finds it claimed and answers before it appends or locks anything.
 */
export async function holdAvailableSubtask(store: PgStore, subtaskId: number): Promise<boolean> {
  const rows = await pgDb(store)
    .select({ id: planSubtasks.id })
    .from(planSubtasks)
    .where(oneIn(planSubtasks, subtaskId, 'available'))
    .for('update');
  return rows.length > 0;
}

/** Claims an available sub-task; false, changing nothing, when another claim holds it or it is not available. */
export async function claimSubtask(
  store: PgStore,
  subtaskId: number,
  claimer: SubtaskClaimer,
  now: number,
): Promise<boolean> {
  const db = pgDb(store);
  const row = { subtaskId, sessionId: claimer.sessionId, agent: claimer.agent, state: 'active', claimedAt: now };
  const won = await db
    .insert(planSubtaskClaims)
    .values({ ...row, observationId: claimer.observationId })
    .onConflictDoNothing()
    .returning({ id: planSubtaskClaims.id });
  const claim = won[0];
  if (!claim) return false;
  const moved = await db
    .update(planSubtasks)
    .set({ status: 'claimed', claimedBySessionId: claimer.sessionId, claimedByAgent: claimer.agent, claimedAt: now })
    .where(oneIn(planSubtasks, subtaskId, 'available'));
  if (changed(moved) > 0) return true;
  await db.delete(planSubtaskClaims).where(eq(planSubtaskClaims.id, claim.id));
  return false;
}

/** Completes a sub-task the session holds (claimed -> completed) and closes its active claim. */
export async function completeSubtask(
  store: PgStore,
  subtaskId: number,
  sessionId: string,
  now: number,
): Promise<boolean> {
  const moved = await pgDb(store)
    .update(planSubtasks)
    .set({ status: 'completed', completedAt: now })
    .where(subtaskWhere.heldBy(planSubtasks, subtaskId, sessionId));
  if (changed(moved) === 0) return false;
  await endActiveClaim(store, subtaskId, 'completed', now);
  return true;
}

/** Gives a claimed sub-task back (claimed -> available); false when it was not claimed. */
export async function releaseSubtaskClaim(store: PgStore, subtaskId: number, now: number): Promise<boolean> {
  const moved = await pgDb(store)
    .update(planSubtasks)
    .set(releasedSubtask)
    .where(oneIn(planSubtasks, subtaskId, 'claimed'));
  if (changed(moved) === 0) return false;
  await endActiveClaim(store, subtaskId, 'released', now);
  return true;
}

async function endActiveClaim(store: PgStore, subtaskId: number, state: 'completed' | 'released', now: number) {
  await pgDb(store)
    .update(planSubtaskClaims)
    .set({ state, endedAt: now })
    .where(subtaskWhere.activeClaim(planSubtaskClaims, subtaskId));
}

/** The claim rows of a sub-task, oldest first: its claim history. */
export async function subtaskClaims(store: PgStore, subtaskId: number): Promise<PlanSubtaskClaim[]> {
  return (await pgDb(store)
    .select()
    .from(planSubtaskClaims)
    .where(eq(planSubtaskClaims.subtaskId, subtaskId))
    .orderBy(asc(planSubtaskClaims.id))) as PlanSubtaskClaim[];
}

export async function countSubtaskClaims(store: PgStore, state?: SubtaskClaimState): Promise<number> {
  const rows = await pgDb(store)
    .select({ n: count() })
    .from(planSubtaskClaims)
    .where(eqIf(planSubtaskClaims.state, state));
  return Number(rows[0]?.n ?? 0);
}
