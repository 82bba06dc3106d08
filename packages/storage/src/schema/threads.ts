/**
 * @module schema/threads
 * Sessions, task threads and who takes part in them.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
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
