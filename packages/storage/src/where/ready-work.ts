/**
 * @module where/ready-work
 * The conditions of the ready-work queries (quiet sessions' claims and sub-tasks, recent
 * agents), shared by `src/ready-work.ts` (SQLite) and `src/pg/queries/ready-work.ts`.
 */
import { and, eq, gte, isNotNull, isNull, lt } from 'drizzle-orm';
import type { fileClaims, planSubtasks, sessions } from '../schema';
import type { ColsOf } from './_columns';

/** The `sessions` columns these builders read. */
export type SessionCols = ColsOf<typeof sessions, 'lastHeartbeatAt' | 'endedAt' | 'agent'>;

export const readyWhere = {
  /** Active claims (joined to `sessions`) of sessions quiet since before `cutoff`. */
  idleClaims: (c: ColsOf<typeof fileClaims, 'state'>, s: SessionCols, cutoff: number) =>
    and(eq(c.state, 'active'), lt(s.lastHeartbeatAt, cutoff)),
  /** Claimed sub-tasks (joined to their claimers' `sessions`) quiet since before `cutoff`. */
  idleSubtasks: (t: ColsOf<typeof planSubtasks, 'status'>, s: SessionCols, cutoff: number) =>
    and(eq(t.status, 'claimed'), lt(s.lastHeartbeatAt, cutoff)),
  /** Sessions with an agent, not ended, that heartbeated at or after `since`. */
  recentAgents: (s: SessionCols, since: number) =>
    and(gte(s.lastHeartbeatAt, since), isNull(s.endedAt), isNotNull(s.agent)),
};
