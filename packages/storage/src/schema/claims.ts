/**
 * @module schema/claims
 * File claims and the batons (handoffs, relays, quota claims) that pass them on.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { observations } from './history';
import { type JsonObject, sessions, tasks } from './threads';

/**
 * File claims: who says they are editing which file of a task's repository. Claims are
 * warnings, never locks. At most one live claim (active or handoff_pending) per
 * (task, file, session), enforced by a partial unique index. Paths are stored relative
 * to the task's repo_root. Age classes (fresh, stale, weak_expired, handoff_pending)
 * are computed at read time from the injected clock, never stored.
 */
export const fileClaims = sqliteTable(
  'file_claims',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    filePath: text('file_path').notNull(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    agent: text('agent').notNull(),
    /** active | handoff_pending | released | weak_expired */
    state: text('state').notNull(),
    claimedAt: integer('claimed_at').notNull(),
    refreshedAt: integer('refreshed_at').notNull(),
    /** When a handoff_pending claim weakens to weak_expired. */
    expiresAt: integer('expires_at'),
    /** The handoff or relay observation a handoff_pending claim waits on. */
    batonId: integer('baton_id'),
    observationId: integer('observation_id').notNull(),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('file_claims_live_uq')
      .on(t.taskId, t.filePath, t.sessionId)
      .where(sql`state IN ('active', 'handoff_pending')`),
    index('file_claims_path_idx').on(t.filePath, t.state),
    index('file_claims_session_idx').on(t.sessionId, t.state),
    index('file_claims_baton_idx').on(t.batonId),
  ],
);

/**
 * Batons: handoffs and relays, keyed by the observation that announced them. State
 * changes (accepted, cancelled, expired) are guarded updates on `status`, so exactly one
 * of many racing acceptors wins.
 */
export const batons = sqliteTable(
  'batons',
  {
    id: integer('id')
      .primaryKey()
      .references(() => observations.id),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    /** handoff | relay */
    kind: text('kind').notNull(),
    fromSessionId: text('from_session_id').notNull(),
    fromAgent: text('from_agent').notNull(),
    /** claude | codex | any */
    toAgent: text('to_agent').notNull(),
    toSessionId: text('to_session_id'),
    /** pending | accepted | cancelled | expired */
    status: text('status').notNull(),
    summary: text('summary').notNull(),
    payload: text('payload', { mode: 'json' }).$type<JsonObject>().notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    resolvedAt: integer('resolved_at'),
    resolvedBySessionId: text('resolved_by_session_id'),
    resolutionReason: text('resolution_reason'),
  },
  (t) => [index('batons_task_status_idx').on(t.taskId, t.status), index('batons_status_idx').on(t.status, t.expiresAt)],
);
