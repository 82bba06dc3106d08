/**
 * @module pg/queries/claims
 * The file-claim queries of `src/claims.ts` on PostgreSQL: same names, arguments and
 * results, async, on the caller's transaction (`pgDb`). Drizzle's builders are the same
 * text on both dialects; what differs is how a result is read (`rowCount` for SQLite's
 * `changes`, an array for `.get()`) and SQLite's scalar `max()` (`greatest()` here).
 * State changes that end or hand over claims are in claims-state.ts.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { FileClaim, NewClaim, RepoClaim } from '../../claims';
import { type ClaimRefresh, claimSet, claimWhere, LIVE } from '../../where/claims';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const { fileClaims, tasks } = pgTables;

/** The session's live claim on one file of a task, if any. */
export async function findLiveClaim(
  store: PgStore,
  taskId: number,
  filePath: string,
  sessionId: string,
): Promise<FileClaim | undefined> {
  const rows = await pgDb(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.onFile(fileClaims, { taskId, filePath, sessionId }, LIVE))
    .limit(1);
  return rows[0] as FileClaim | undefined;
}

/** Inserts an active claim claimed and refreshed `now`. */
export async function insertClaim(store: PgStore, claim: NewClaim, now: number): Promise<FileClaim> {
  const rows = await pgDb(store)
    .insert(fileClaims)
    .values({ ...claim, note: claim.note ?? null, state: 'active', claimedAt: now, refreshedAt: now })
    .returning();
  return rows[0] as FileClaim;
}

/** Makes a live claim active and fresh again (see src/claims.ts). */
export async function refreshClaim(store: PgStore, id: number, change: ClaimRefresh): Promise<FileClaim> {
  const rows = await pgDb(store)
    .update(fileClaims)
    .set(claimSet.refresh(change))
    .where(eq(fileClaims.id, id))
    .returning();
  return rows[0] as FileClaim;
}

/** Refreshes the session's active claim on a file; false when it holds none. */
export async function touchActiveClaim(
  store: PgStore,
  taskId: number,
  filePath: string,
  sessionId: string,
  now: number,
): Promise<boolean> {
  const result = await pgDb(store)
    .update(fileClaims)
    .set({ refreshedAt: sql`greatest(${fileClaims.refreshedAt}, ${now})` })
    .where(claimWhere.onFile(fileClaims, { taskId, filePath, sessionId }, 'active'));
  return (result.rowCount ?? 0) > 0;
}

/** Claims on one repository file across every thread of that repository, newest first. */
export async function claimsOnRepoFile(
  store: PgStore,
  repoRoot: string,
  filePath: string,
  limit: number,
): Promise<RepoClaim[]> {
  const rows = await pgDb(store)
    .select({ claim: fileClaims, branch: tasks.branch })
    .from(fileClaims)
    .innerJoin(tasks, eq(tasks.id, fileClaims.taskId))
    .where(claimWhere.onRepoFile(fileClaims, tasks, repoRoot, filePath))
    .orderBy(desc(fileClaims.refreshedAt), desc(fileClaims.id))
    .limit(limit);
  return rows.map((r) => ({ ...(r.claim as FileClaim), branch: r.branch as string }));
}

/** Live claims on the given threads held by sessions other than `sessionId`, newest first. */
export async function othersLiveClaims(
  store: PgStore,
  taskIds: readonly number[],
  sessionId: string,
  limit: number,
): Promise<FileClaim[]> {
  if (taskIds.length === 0) return [];
  return (await pgDb(store)
    .select()
    .from(fileClaims)
    .where(claimWhere.othersLive(fileClaims, taskIds, sessionId))
    .orderBy(desc(fileClaims.refreshedAt), desc(fileClaims.id))
    .limit(limit)) as FileClaim[];
}
