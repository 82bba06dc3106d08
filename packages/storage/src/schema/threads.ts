/**
 * @module schema/threads
 * Sessions, task threads, their participants and the append-only observations (history; mirrored into the FTS5 index `observations_fts` by triggers, see drizzle/0001_fts.sql).
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export type JsonObject = Record<string, unknown>;

/** One agent session: an IDE process, a worker agent, or a CLI invocation. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    ide: text('ide').notNull().default('unknown'),
    agent: text('agent'),
    cwd: text('cwd'),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
    lastHeartbeatAt: integer('last_heartbeat_at').notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<JsonObject>(),
  },
  // Heartbeat order finds live sessions (hivemind lanes) without reading old ones.
  (t) => [index('sessions_started_idx').on(t.startedAt), index('sessions_heartbeat_idx').on(t.lastHeartbeatAt)],
);

/** A task thread: the shared conversation of everyone working on (repo_root, branch). */
export const tasks = sqliteTable(
  'tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    branch: text('branch').notNull(),
    title: text('title'),
    status: text('status').notNull().default('active'),
    createdBySession: text('created_by_session'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('tasks_repo_branch_uq').on(t.repoRoot, t.branch), index('tasks_updated_idx').on(t.updatedAt)],
);

/** Who takes part in a task thread, and as which agent. */
export const taskParticipants = sqliteTable(
  'task_participants',
  {
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    agent: text('agent').notNull(),
    joinedAt: integer('joined_at').notNull(),
    leftAt: integer('left_at'),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.sessionId] }), index('task_participants_session_idx').on(t.sessionId)],
);

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
