/**
 * @module pg/queries/receipt-summaries
 * Receipts summed over a window (`src/receipt-summaries.ts`) on PostgreSQL: `ok` is a
 * boolean here (`count(*) FILTER (WHERE ok)` for SQLite's `sum(ok)`), and counts and
 * sums come back as strings, read as numbers. Order ties are broken as on SQLite.
 */
import type { ReceiptErrorReason, ReceiptHour, ReceiptTotals, ReceiptWindow } from '../../receipt-summaries';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';

const WHERE = 'ts >= $1 AND ts <= $2 AND ($3::text IS NULL OR operation = $3)';

const TOTALS_SQL = `SELECT operation, count(*) AS calls, count(*) FILTER (WHERE ok) AS "okCount",
  sum(input_tokens) AS "inputTokens", sum(output_tokens) AS "outputTokens",
  sum(duration_ms) AS "totalDurationMs", max(ts) AS "lastTs"
  FROM mcp_metrics WHERE ${WHERE} GROUP BY operation ORDER BY calls DESC, operation COLLATE "C"`;

const REASONS_SQL = `SELECT operation, error_code AS "errorCode", error_message AS "errorMessage",
  count(*) AS count, max(ts) AS "lastTs"
  FROM mcp_metrics WHERE NOT ok AND ${WHERE}
  GROUP BY operation, error_code, error_message ORDER BY count DESC, "lastTs" DESC`;

const HOURLY_SQL = `SELECT (ts / 3600000) * 3600000 AS hour, count(*) AS calls, count(*) FILTER (WHERE NOT ok) AS "errorCount",
  sum(input_tokens) AS "inputTokens", sum(output_tokens) AS "outputTokens"
  FROM mcp_metrics WHERE ${WHERE} GROUP BY 1 ORDER BY 1`;

async function run<R>(store: PgStore, sql: string, w: ReceiptWindow, numbers: readonly string[]): Promise<R[]> {
  const { rows } = await pgClient(store).query(sql, [w.since, w.until, w.operation ?? null]);
  return rows.map((r) => numbered<R>(r, numbers));
}

/** Sums per operation over the window, most called first. */
export function receiptTotals(store: PgStore, window: ReceiptWindow): Promise<ReceiptTotals[]> {
  const numbers = ['calls', 'okCount', 'inputTokens', 'outputTokens', 'totalDurationMs', 'lastTs'];
  return run<ReceiptTotals>(store, TOTALS_SQL, window, numbers);
}

/** Failure reasons over the window, most frequent first. */
export function receiptErrorReasons(store: PgStore, window: ReceiptWindow): Promise<ReceiptErrorReason[]> {
  return run<ReceiptErrorReason>(store, REASONS_SQL, window, ['count', 'lastTs']);
}

/** The window's receipts summed per hour (only hours that have any), oldest first. */
export function receiptsByHour(store: PgStore, window: ReceiptWindow): Promise<ReceiptHour[]> {
  const numbers = ['hour', 'calls', 'errorCount', 'inputTokens', 'outputTokens'];
  return run<ReceiptHour>(store, HOURLY_SQL, window, numbers);
}
