/**
 * @module claims
 * Queries for file claims. A claim row moves through the states documented on
 * `fileClaims` (active, handoff_pending, released, weak_expired); rows are never
 * deleted, so the table is also the audit history of who claimed what. The partial
 * unique index `file_claims_live_uq` keeps at most one live (active or handoff_pending)
 * row per (task, file, session): re-claiming refreshes that row instead of adding one.
 * Every function here is a plain statement; callers run them inside `store.write`.
 */
import { count, desc, eq, sql } from 'drizzle-orm';
import { dbOf, prepared, type Store } from './_store';
import { fileClaims, tasks } from './schema';
import { placeholders } from './where/_columns';
import { eqIf } from './where/_common';
import { type ClaimRefresh, claimSet, claimWhere, LIVE } from './where/claims';

export type FileClaim = typeof fileClaims.$inferSelect;
export type ClaimState = 'active' | 'handoff_pending' | 'released' | 'weak_expired';

/** The prepared statements' (task, file, session) placeholders. */
const PLACE = placeholders('taskId', 'filePath', 'sessionId');

export interface NewClaim {
  readonly taskId: number;
  readonly filePath: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly observationId: number;
  readonly note?: string | null;
}

/** The session's live claim on one file of a task, if any. */
export function findLiveClaim(
  store: Store,
  taskId: number,
  filePath: string,
  sessionId: string,
): FileClaim | undefined {
  return prepared(store, 'findLiveClaim', (db) =>
    db
      .select()
      .from(fileClaims)
      .where(claimWhere.onFile(fileClaims, PLACE, LIVE))
      .prepare(),
  ).get({ taskId, filePath, sessionId });
}

/** Inserts an active claim claimed and refreshed `now`. */
export function insertClaim(store: Store, claim: NewClaim, now: number): FileClaim {
  return dbOf(store)
    .insert(fileClaims)
    .values({ ...claim, note: claim.note ?? null, state: 'active', claimedAt: now, refreshedAt: now })
    .returning()
    .get();
}

/**
 * Makes a live claim active and fresh again: refreshed now, recorded by a new
 * observation, detached from any baton it was waiting on. A given note replaces the old.
 */
export function refreshClaim(store: Store, id: number, change: ClaimRefresh): FileClaim {
  return dbOf(store).update(fileClaims).set(claimSet.refresh(change)).where(eq(fileClaims.id, id)).returning().get();
}

/** Refreshes the session's active claim on a file (an edit keeps it fresh); false when it holds none. */
export function touchActiveClaim(
  store: Store,
  taskId: number,
  filePath: string,
  sessionId: string,
  now: number,
): boolean {
  const result = prepared(store, 'touchActiveClaim', (db) =>
    db
      .update(fileClaims)
      .set({ refreshedAt: sql`max(${fileClaims.refreshedAt}, ${sql.placeholder('now')})` })
      .where(claimWhere.onFile(fileClaims, PLACE, 'active'))
      .prepare(),
  ).run({ taskId, filePath, sessionId, now });
  return result.changes > 0;
}

/** A claim with the branch of its task, for overlap reports across a repository's threads. */
export interface RepoClaim extends FileClaim {
  readonly branch: string;
}

/**
 * Claims on one repository file across every thread of that repository (any branch):
 * live rows and weak_expired history, most recently refreshed first.
 */
export function claimsOnRepoFile(store: Store, repoRoot: string, filePath: string, limit: number): RepoClaim[] {
  return dbOf(store)
    .select({ claim: fileClaims, branch: tasks.branch })
    .from(fileClaims)
    .innerJoin(tasks, eq(tasks.id, fileClaims.taskId))
    .where(claimWhere.onRepoFile(fileClaims, tasks, repoRoot, filePath))
    .orderBy(desc(fileClaims.refreshedAt), desc(fileClaims.id))
    .limit(limit)
    .all()
    .map((r) => ({ ...r.claim, branch: r.branch }));
}

/**
 * Live claims on the given threads held by sessions other than `sessionId`, most
 * recently refreshed first: what others are editing, for a session-start preface.
 */
export function othersLiveClaims(
  store: Store,
  taskIds: readonly number[],
  sessionId: string,
  limit: number,
): FileClaim[] {
  if (taskIds.length === 0) return [];
  return dbOf(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.othersLive(fileClaims, taskIds, sessionId))
    .orderBy(desc(fileClaims.refreshedAt), desc(fileClaims.id))
    .limit(limit)
    .all();
}

/** A session's claims on a task in the given states, oldest claim first. */
export function sessionClaims(
  store: Store,
  taskId: number,
  sessionId: string,
  states: readonly ClaimState[],
): FileClaim[] {
  return dbOf(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.ofSession(fileClaims, taskId, sessionId, states))
    .orderBy(fileClaims.claimedAt, fileClaims.id)
    .all();
}

/** Ties live claims to a baton: handoff_pending until `expiresAt`. Returns how many changed. */
export function markClaimsPending(store: Store, ids: readonly number[], batonId: number, expiresAt: number): number {
  if (ids.length === 0) return 0;
  return dbOf(store)
    .update(fileClaims)
    .set({ state: 'handoff_pending', batonId, expiresAt })
    .where(claimWhere.liveIds(fileClaims, ids))
    .run().changes;
}

/** The handoff_pending claims waiting on a baton, oldest first. */
export function pendingClaimsOfBaton(store: Store, batonId: number): FileClaim[] {
  return dbOf(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.pendingOfBaton(fileClaims, batonId))
    .orderBy(fileClaims.id)
    .all();
}

/** Ends a session's live claims on these files of a task (state released). Returns how many. */
export function releaseLiveClaims(
  store: Store,
  taskId: number,
  sessionId: string,
  filePaths: readonly string[],
): number {
  if (filePaths.length === 0) return 0;
  return dbOf(store)
    .update(fileClaims)
    .set({ state: 'released' })
    .where(claimWhere.liveOnFiles(fileClaims, taskId, sessionId, filePaths))
    .run().changes;
}

/**
 * Settles the handoff_pending claims of a baton that did not transfer: back to active
 * (the sender keeps them) or weak_expired (nobody owns them any more).
 */
export function settlePendingClaims(store: Store, batonId: number, to: 'active' | 'weak_expired'): number {
  return dbOf(store)
    .update(fileClaims)
    .set(claimSet.settle(batonId, to))
    .where(claimWhere.pendingOfBaton(fileClaims, batonId))
    .run().changes;
}

/** A task's handoff_pending claims whose TTL has run out at `now`, optionally on one file. */
export function expiredPendingClaims(store: Store, taskId: number, now: number, filePath?: string): FileClaim[] {
  return dbOf(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.expiredPending(fileClaims, taskId, now, filePath))
    .orderBy(fileClaims.id)
    .all();
}

/** Weakens the given handoff_pending claims to weak_expired. Returns how many changed. */
export function weakenClaims(store: Store, ids: readonly number[]): number {
  if (ids.length === 0) return 0;
  return dbOf(store)
    .update(fileClaims)
    .set({ state: 'weak_expired' })
    .where(claimWhere.pendingIds(fileClaims, ids))
    .run().changes;
}

export function countClaims(store: Store, state?: ClaimState): number {
  return dbOf(store).select({ n: count() }).from(fileClaims).where(eqIf(fileClaims.state, state)).get()?.n ?? 0;
}
