/**
 * @module schema/mesh
 * Seed-001 context mesh: entries with access lists, agent messages and their recipients.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { observations } from './history';

/**
 * Seed-001 context mesh: one JSON value per key, readable by everyone (`subscribers`
 * NULL) or only by its `owner` and the agents of the `subscribers` JSON array. A key
 * whose `expires_at` has passed is gone: reads compute that from the injected clock,
 * and write transactions delete such rows. `version` counts writes since the key was
 * (re)created. High-volume like `context_entries`: no observation per write.
 */
export const meshContext = sqliteTable(
  'mesh_context',
  {
    key: text('key').primaryKey(),
    /** JSON text. */
    value: text('value').notNull(),
    owner: text('owner').notNull(),
    /** JSON array of agent names; NULL: every agent may read. */
    subscribers: text('subscribers'),
    version: integer('version').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    expiresAt: integer('expires_at'),
  },
  (t) => [index('mesh_context_expires_idx').on(t.expiresAt).where(sql`expires_at IS NOT NULL`)],
);

/**
 * Seed-001 agent messages, keyed by the `agent-message` observation holding the body.
 * One row per message, broadcast or direct; who receives it, and whether they read
 * it, lives in `mesh_message_recipients`. `confirms_id` marks a read confirmation.
 */
export const meshMessages = sqliteTable(
  'mesh_messages',
  {
    id: integer('id')
      .primaryKey()
      .references(() => observations.id),
    fromAgent: text('from_agent').notNull(),
    /** info | task | result | error | question */
    messageType: text('message_type').notNull(),
    /** low | normal | high | urgent */
    priority: text('priority').notNull(),
    threadId: text('thread_id'),
    requiresConfirmation: integer('requires_confirmation', { mode: 'boolean' }).notNull(),
    confirmsId: integer('confirms_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('mesh_messages_thread_idx').on(t.threadId, t.fromAgent)],
);

/** One row per (message, recipient): the recipient's read flag. Read once: read_at never changes after. */
export const meshMessageRecipients = sqliteTable(
  'mesh_message_recipients',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => meshMessages.id),
    agent: text('agent').notNull(),
    readAt: integer('read_at'),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.agent] }),
    index('mesh_recipients_inbox_idx').on(t.agent, t.readAt, t.messageId),
  ],
);
