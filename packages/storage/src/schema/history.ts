/**
 * @module schema/history
 * The append-only history (mirrored into the FTS5 index `observations_fts` by triggers, see drizzle/0001_fts.sql).
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { type JsonObject, sessions, tasks } from './threads';

/** The append-only history: every note, edit, decision and audit record. */
export const observations = sqliteTable(
  'observations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    taskId: integer('task_id').references(() => tasks.id),
    kind: text('kind').notNull(),
    content: text('content').notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<JsonObject>(),
    replyTo: integer('reply_to'),
    ts: integer('ts').notNull(),
    tokenCount: integer('token_count').notNull().default(0),
  },
  (t) => [
    index('observations_session_idx').on(t.sessionId, t.id),
    index('observations_task_idx').on(t.taskId, t.id),
    index('observations_kind_idx').on(t.kind, t.id),
    // A lane's last edit on its thread in one probe (edits are a small share of the history).
    index('observations_edit_idx').on(t.sessionId, t.taskId, t.ts).where(sql`kind = 'edit'`),
  ],
);
