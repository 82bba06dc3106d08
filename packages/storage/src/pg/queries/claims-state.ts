/**
 * @module pg/queries/claims-state
 * The claim state changes of `src/claims.ts` on PostgreSQL (pending on a baton,
 * released, settled, weakened) and the lists they act on; each change is one guarded
 * UPDATE, its count PostgreSQL's `rowCount`.
 */
import { count } from 'drizzle-orm';
import type { ClaimState, FileClaim } from '../../claims';
import { eqIf } from '../../where/_common';
import { claimSet, claimWhere } from '../../where/claims';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed } from './_common';

const { fileClaims } = pgTables;

/** A session's claims on a task in the given states, oldest claim first. */
export async function sessionClaims(
  store: PgStore,
  taskId: number,
  sessionId: string,
  states: readonly ClaimState[],
): Promise<FileClaim[]> {
  return (await pgDb(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.ofSession(fileClaims, taskId, sessionId, states))
    .orderBy(fileClaims.claimedAt, fileClaims.id)) as FileClaim[];
}

/** Ties live claims to a baton: handoff_pending until `expiresAt`. Returns how many changed. */
export async function markClaimsPending(
  store: PgStore,
  ids: readonly number[],
  batonId: number,
  expiresAt: number,
): Promise<number> {
  if (ids.length === 0) return 0;
  return changed(
    await pgDb(store)
      .update(fileClaims)
      .set({ state: 'handoff_pending', batonId, expiresAt })
      .where(claimWhere.liveIds(fileClaims, ids)),
  );
}

/** The handoff_pending claims waiting on a baton, oldest first. */
export async function pendingClaimsOfBaton(store: PgStore, batonId: number): Promise<FileClaim[]> {
  return (await pgDb(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.pendingOfBaton(fileClaims, batonId))
    .orderBy(fileClaims.id)) as FileClaim[];
}

/** Ends a session's live claims on these files of a task (state released). Returns how many. */
export async function releaseLiveClaims(
  store: PgStore,
  taskId: number,
  sessionId: string,
  filePaths: readonly string[],
): Promise<number> {
  if (filePaths.length === 0) return 0;
  return changed(
    await pgDb(store)
      .update(fileClaims)
      .set({ state: 'released' })
      .where(claimWhere.liveOnFiles(fileClaims, taskId, sessionId, filePaths)),
  );
}

/** Settles a baton's handoff_pending claims that did not transfer: active again, or weak_expired. */
export async function settlePendingClaims(
  store: PgStore,
  batonId: number,
  to: 'active' | 'weak_expired',
): Promise<number> {
  return changed(
    await pgDb(store)
      .update(fileClaims)
      .set(claimSet.settle(batonId, to))
      .where(claimWhere.pendingOfBaton(fileClaims, batonId)),
  );
}

/** A task's handoff_pending claims whose TTL has run out at `now`, optionally on one file. */
export async function expiredPendingClaims(
  store: PgStore,
  taskId: number,
  now: number,
  filePath?: string,
): Promise<FileClaim[]> {
  return (await pgDb(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.expiredPending(fileClaims, taskId, now, filePath))
    .orderBy(fileClaims.id)) as FileClaim[];
}

/** Weakens the given handoff_pending claims to weak_expired. Returns how many changed. */
export async function weakenClaims(store: PgStore, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return changed(
    await pgDb(store).update(fileClaims).set({ state: 'weak_expired' }).where(claimWhere.pendingIds(fileClaims, ids)),
  );
}

export async function countClaims(store: PgStore, state?: ClaimState): Promise<number> {
  const rows = await pgDb(store).select({ n: count() }).from(fileClaims).where(eqIf(fileClaims.state, state));
  return Number(rows[0]?.n ?? 0);
}
