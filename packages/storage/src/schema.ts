/**
 * @module schema
 * The drizzle schema of colony's store. Current state lives in normalized tables
 * whose constraints enforce the invariants; history lives in `observations`, which
 * is append-only and mirrored into the FTS5 index `observations_fts` by triggers
 * (see drizzle/0001_fts.sql: raw SQL is allowed there and only there).
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

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
  (t) => [index('sessions_started_idx').on(t.startedAt)],
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
  ],
);

/** First results of mutating tool calls, so a retry with the same key writes nothing again. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    tool: text('tool').notNull(),
    key: text('key').notNull(),
    argsHash: text('args_hash').notNull(),
    result: text('result', { mode: 'json' }).$type<unknown>().notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tool, t.key] })],
);

/** One receipt per tool call: what it cost and how it ended. */
export const mcpMetrics = sqliteTable(
  'mcp_metrics',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ts: integer('ts').notNull(),
    operation: text('operation').notNull(),
    sessionId: text('session_id'),
    durationMs: real('duration_ms').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    ok: integer('ok', { mode: 'boolean' }).notNull(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
  },
  (t) => [index('mcp_metrics_ts_idx').on(t.ts), index('mcp_metrics_session_op_idx').on(t.sessionId, t.operation)],
);
