/**
 * @module schema/messages
 * Directed messages between sessions, and links between task threads.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { observations } from './history';
import { tasks } from './threads';

/**
 * Directed and broadcast messages, keyed by their observation. The body lives in the
 * observation (searchable, audited); this row carries addressing and lifecycle.
 */
export const messages = sqliteTable(
  'messages',
  {
    id: integer('id')
      .primaryKey()
      .references(() => observations.id),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    fromSessionId: text('from_session_id').notNull(),
    fromAgent: text('from_agent').notNull(),
    /** claude | codex | any */
    toAgent: text('to_agent').notNull(),
    toSessionId: text('to_session_id'),
    /** fyi | needs_reply | blocking */
    urgency: text('urgency').notNull(),
    /** unread | read | replied | expired | retracted */
    status: text('status').notNull(),
    replyTo: integer('reply_to'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at'),
    statusChangedAt: integer('status_changed_at').notNull(),
    claimedBySessionId: text('claimed_by_session_id'),
    claimedByAgent: text('claimed_by_agent'),
    claimedAt: integer('claimed_at'),
  },
  (t) => [
    index('messages_to_idx').on(t.toAgent, t.status),
    index('messages_to_session_idx').on(t.toSessionId, t.status),
    index('messages_task_idx').on(t.taskId, t.id),
  ],
);

/** Bidirectional links between task threads, stored once as (low_id, high_id). */
export const taskLinks = sqliteTable(
  'task_links',
  {
    lowId: integer('low_id')
      .notNull()
      .references(() => tasks.id),
    highId: integer('high_id')
      .notNull()
      .references(() => tasks.id),
    createdAt: integer('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    note: text('note'),
  },
  (t) => [primaryKey({ columns: [t.lowId, t.highId] }), index('task_links_high_idx').on(t.highId)],
);
