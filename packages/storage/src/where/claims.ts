/**
 * @module where/claims
 * The WHERE conditions and `set` objects of the file-claim queries, shared by
 * `src/claims.ts` (SQLite) and `src/pg/queries/claims*.ts` (PostgreSQL): each takes the
 * dialect's `fileClaims` table, so both render the same drizzle expression.
 */
import { and, eq, inArray, lte, ne } from 'drizzle-orm';
import type { fileClaims, tasks } from '../schema';
import type { Arg, ColsOf } from './_columns';

/** The states of a claim someone holds. */
export const LIVE: string[] = ['active', 'handoff_pending'];

/** The `fileClaims` columns these builders read. */
export type ClaimCols = ColsOf<
  typeof fileClaims,
  'id' | 'taskId' | 'filePath' | 'sessionId' | 'state' | 'batonId' | 'expiresAt'
>;

/** What `refreshClaim` changes. */
export interface ClaimRefresh {
  readonly now: number;
  readonly observationId: number;
  readonly note?: string | null;
}

/** A claim's place: a session on one file of a task (values or placeholders). */
export interface ClaimPlace {
  readonly taskId: Arg<number>;
  readonly filePath: Arg<string>;
  readonly sessionId: Arg<string>;
}

export const claimWhere = {
  /** The session's claim on the file in `state`, or in any of the `state` list. */
  onFile: (c: ClaimCols, at: ClaimPlace, state: string | string[]) =>
    and(
      eq(c.taskId, at.taskId),
      eq(c.filePath, at.filePath),
      eq(c.sessionId, at.sessionId),
      Array.isArray(state) ? inArray(c.state, state) : eq(c.state, state),
    ),
  /** Claims on a repository file (joined to `tasks`): live rows and weak_expired history. */
  onRepoFile: (c: ClaimCols, t: ColsOf<typeof tasks, 'repoRoot'>, repoRoot: string, filePath: string) =>
    and(
      eq(c.filePath, filePath),
      eq(t.repoRoot, repoRoot),
      inArray(c.state, ['active', 'handoff_pending', 'weak_expired']),
    ),
  /** Live claims on these threads held by sessions other than `sessionId`. */
  othersLive: (c: ClaimCols, taskIds: readonly number[], sessionId: string) =>
    and(inArray(c.taskId, [...taskIds]), ne(c.sessionId, sessionId), inArray(c.state, LIVE)),
  /** A session's claims on a task in these states. */
  ofSession: (c: ClaimCols, taskId: number, sessionId: string, states: readonly string[]) =>
    and(eq(c.taskId, taskId), eq(c.sessionId, sessionId), inArray(c.state, [...states])),
  /** These claims, when live. */
  liveIds: (c: ClaimCols, ids: readonly number[]) => and(inArray(c.id, [...ids]), inArray(c.state, LIVE)),
  /** These claims, when handoff_pending. */
  pendingIds: (c: ClaimCols, ids: readonly number[]) => and(inArray(c.id, [...ids]), eq(c.state, 'handoff_pending')),
  /** The handoff_pending claims waiting on a baton. */
  pendingOfBaton: (c: ClaimCols, batonId: number) => and(eq(c.batonId, batonId), eq(c.state, 'handoff_pending')),
  /** A session's live claims on these files of a task. */
  liveOnFiles: (c: ClaimCols, taskId: number, sessionId: string, filePaths: readonly string[]) =>
    and(eq(c.taskId, taskId), eq(c.sessionId, sessionId), inArray(c.filePath, [...filePaths]), inArray(c.state, LIVE)),
  /** A task's handoff_pending claims whose TTL has run out at `now`, optionally on one file. */
  expiredPending: (c: ClaimCols, taskId: number, now: number, filePath?: string) =>
    and(
      eq(c.taskId, taskId),
      eq(c.state, 'handoff_pending'),
      lte(c.expiresAt, now),
      filePath === undefined ? undefined : eq(c.filePath, filePath),
    ),
};

export const claimSet = {
  /** Active and fresh again, detached from any baton; a given note replaces the old. */
  refresh: (change: ClaimRefresh) => ({
    state: 'active' as const,
    refreshedAt: change.now,
    observationId: change.observationId,
    batonId: null,
    expiresAt: null,
    ...(change.note == null ? {} : { note: change.note }),
  }),
  /** A baton that did not transfer: back to active (detached) or weak_expired (kept on it). */
  settle: (batonId: number, to: 'active' | 'weak_expired') => ({
    state: to,
    batonId: to === 'active' ? null : batonId,
    expiresAt: to === 'active' ? null : undefined,
  }),
};
