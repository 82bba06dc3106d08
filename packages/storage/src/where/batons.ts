/**
 * @module where/batons
 * The WHERE conditions and `set` objects of the baton queries, shared by
 * `src/batons.ts` (SQLite) and `src/pg/queries/batons.ts` (PostgreSQL). Every status
 * change is guarded by `status = 'pending'` (`pendingOne`): one caller wins.
 */
import { and, eq, gt, isNull, lte, ne, sql } from 'drizzle-orm';
import type { batons, fileClaims } from '../schema';
import type { ColsOf } from './_columns';
import type { ParticipantCols } from './tasks';

/** The `batons` columns these builders read. */
export type BatonCols = ColsOf<
  typeof batons,
  'id' | 'taskId' | 'status' | 'expiresAt' | 'fromSessionId' | 'toSessionId'
>;

/** The `fileClaims` columns a file's pending baton is found by. */
export type BatonClaimCols = ColsOf<typeof fileClaims, 'taskId' | 'filePath' | 'state'>;

export const batonWhere = {
  /** A task's pending batons whose time is up at `now`. */
  overdue: (b: BatonCols, taskId: number, now: number) =>
    and(eq(b.taskId, taskId), eq(b.status, 'pending'), lte(b.expiresAt, now)),
  /** The pending batons holding a handoff_pending claim on this file of the task. */
  ofFile: (c: BatonClaimCols, b: BatonCols, taskId: number, filePath: string) =>
    and(eq(c.taskId, taskId), eq(c.filePath, filePath), eq(c.state, 'handoff_pending'), eq(b.status, 'pending')),
  /** The join of a baton to the session's participation in its thread. */
  participantJoin: (p: ParticipantCols, b: BatonCols, sessionId: string) =>
    and(eq(p.taskId, b.taskId), eq(p.sessionId, sessionId)),
  /** Pending, unexpired, not sent by the session, addressed to it or to no session; still joined. */
  openFor: (p: ParticipantCols, b: BatonCols, sessionId: string, now: number) =>
    and(
      isNull(p.leftAt),
      eq(b.status, 'pending'),
      gt(b.expiresAt, now),
      ne(b.fromSessionId, sessionId),
      sql`(${b.toSessionId} IS NULL OR ${b.toSessionId} = ${sessionId})`,
    ),
};

/** The `set` of a resolution: its status, when, by whom and why. */
export const resolutionSet = (r: {
  readonly status: string;
  readonly now: number;
  readonly bySessionId: string;
  readonly reason?: string | null;
}) => ({
  status: r.status,
  resolvedAt: r.now,
  resolvedBySessionId: r.bySessionId,
  resolutionReason: r.reason ?? null,
});
