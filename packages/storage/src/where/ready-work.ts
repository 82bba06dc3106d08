/**
 * @module where/ready-work
 * The conditions of the ready-work queries (quiet sessions' claims and sub-tasks, recent
 * agents), shared by `src/ready-work.ts` (SQLite) and `src/pg/queries/ready-work.ts`.
 */
import { and, eq, gte, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Col } from './_columns';

/** The `sessions` columns these builders read. */
export interface SessionCols {
  readonly lastHeartbeatAt: Col<number>;
  readonly endedAt: Col<number>;
  readonly agent: Col<string>;
}

export const readyWhere = {
  /** Active claims (joined to `sessions`) of sessions quiet since before `cutoff`. */
  idleClaims: (c: { readonly state: Col<string> }, s: SessionCols, cutoff: number) =>
    and(eq(c.state, 'active'), lt(s.lastHeartbeatAt, cutoff)),
  /** Claimed sub-tasks (joined to their claimers' `sessions`) quiet since before `cutoff`. */
  idleSubtasks: (t: { readonly status: Col<string> }, s: SessionCols, cutoff: number) =>
    and(eq(t.status, 'claimed'), lt(s.lastHeartbeatAt, cutoff)),
  /** Sessions with an agent, not ended, that heartbeated at or after `since`. */
  recentAgents: (s: SessionCols, since: number) =>
    and(gte(s.lastHeartbeatAt, since), isNull(s.endedAt), isNotNull(s.agent)),
};
