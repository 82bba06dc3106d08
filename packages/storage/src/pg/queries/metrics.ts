/**
 * @module pg/queries/metrics
 * Tool-call receipts (`src/metrics.ts`) on PostgreSQL; `ok` is a boolean column here.
 */
import { count, gte } from 'drizzle-orm';
import type { Bookkeeping, Receipt } from '../../metrics';
import { callsSince, receiptColumnsOf } from '../../where/metrics';
import { pgTables } from '../schema';
import { inCallersWrite, pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { refineSql } from './observations-read';
import { heartbeatSql } from './session-heartbeats';

const { mcpMetrics } = pgTables;

/** Writes receipts in one statement: in the caller's transaction (no savepoint of its own), or alone. */
export async function insertReceipts(store: PgStore, receipts: readonly Receipt[]): Promise<void> {
  if (receipts.length === 0) return;
  await inCallersWrite(store, async () => {
    await pgDb(store)
      .insert(mcpMetrics)
      .values(receipts.map((r) => ({ ...r })));
  });
}

const BOOKKEEPING_SQL = `WITH m AS (
    INSERT INTO mcp_metrics (ts, operation, session_id, duration_ms, input_tokens, output_tokens, ok, error_code, error_message)
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::float8[], $5::bigint[], $6::bigint[], $7::boolean[], $8::text[], $9::text[])),
  h AS (${heartbeatSql(10, 11)}),
  r AS (${refineSql(12)})
  SELECT 1`;

/** The three in one statement (unnest of each list; an empty list writes nothing). */
export async function writeBookkeeping(store: PgStore, b: Bookkeeping): Promise<void> {
  const { receipts: r, beats, refinements: t } = b;
  if (r.length + beats.length + t.length === 0) return;
  const params = [
    ...[r.map((x) => x.ts), r.map((x) => x.operation), r.map((x) => x.sessionId), r.map((x) => x.durationMs)],
    ...[r.map((x) => x.inputTokens), r.map((x) => x.outputTokens), r.map((x) => x.ok)],
    ...[r.map((x) => x.errorCode), r.map((x) => x.errorMessage)],
    ...[beats.map((x) => x.id), beats.map((x) => x.ts)],
    ...[t.map((x) => x.id), t.map((x) => x.tokenCount), t.map((x) => x.content)],
  ];
  await inCallersWrite(store, async () => {
    await pgClient(store).query(BOOKKEEPING_SQL, params);
  });
}

/** How many calls of `operation` a session made since `sinceTs`. */
export async function countCalls(store: PgStore, sessionId: string, operation: string, sinceTs = 0): Promise<number> {
  const rows = await pgDb(store)
    .select({ n: count() })
    .from(mcpMetrics)
    .where(callsSince(mcpMetrics, sessionId, operation, sinceTs));
  return Number(rows[0]?.n ?? 0);
}

/** Receipts since `sinceTs`, oldest first (SQLite walks its ts index: same order). */
export async function listReceipts(store: PgStore, sinceTs: number): Promise<Receipt[]> {
  const rows = await pgDb(store)
    .select(receiptColumnsOf(mcpMetrics))
    .from(mcpMetrics)
    .where(gte(mcpMetrics.ts, sinceTs))
    .orderBy(mcpMetrics.ts, mcpMetrics.id);
  return rows as Receipt[];
}
