/**
 * @module schema/calls
 * Tool calls: first results of mutating calls (idempotency) and one receipt per call.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

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
