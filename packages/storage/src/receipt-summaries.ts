/**
 * @module receipt-summaries
 * Receipts summed over a time window, in SQL (the ts index bounds each scan): per
 * operation, failure reasons, and per hour, for savings_report and `colony gain`.
 */
import { type Store, statement } from './_store';

export interface ReceiptWindow {
  /** Inclusive lower bound (epoch ms). */
  readonly since: number;
  /** Inclusive upper bound (epoch ms). */
  readonly until: number;
  /** Only this tool's receipts. */
  readonly operation?: string;
}

/** Per-operation sums of a window's receipts. */
export interface ReceiptTotals {
  readonly operation: string;
  readonly calls: number;
  readonly okCount: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalDurationMs: number;
  readonly lastTs: number;
}

/** Failed calls of a window grouped by operation, code and message (null: not recorded). */
export interface ReceiptErrorReason {
  readonly operation: string;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly count: number;
  readonly lastTs: number;
}

const WINDOW_WHERE = 'ts >= @since AND ts <= @until AND (@operation IS NULL OR operation = @operation)';

const TOTALS_SQL = `SELECT operation, count(*) AS calls, sum(ok) AS okCount,
  sum(input_tokens) AS inputTokens, sum(output_tokens) AS outputTokens,
  sum(duration_ms) AS totalDurationMs, max(ts) AS lastTs
  FROM mcp_metrics WHERE ${WINDOW_WHERE} GROUP BY operation ORDER BY calls DESC, operation`;

const REASONS_SQL = `SELECT operation, error_code AS errorCode, error_message AS errorMessage,
  count(*) AS count, max(ts) AS lastTs
  FROM mcp_metrics WHERE ok = 0 AND ${WINDOW_WHERE}
  GROUP BY operation, error_code, error_message ORDER BY count DESC, lastTs DESC`;

const windowParams = (w: ReceiptWindow) => ({ since: w.since, until: w.until, operation: w.operation ?? null });

/** Sums per operation over the window (the ts index bounds the scan), most called first. */
export function receiptTotals(store: Store, window: ReceiptWindow): ReceiptTotals[] {
  return statement(store, TOTALS_SQL).all(windowParams(window)) as ReceiptTotals[];
}

/** Failure reasons over the window, most frequent first. */
export function receiptErrorReasons(store: Store, window: ReceiptWindow): ReceiptErrorReason[] {
  return statement(store, REASONS_SQL).all(windowParams(window)) as ReceiptErrorReason[];
}

/** One hour of a window's receipts (the hour's start in epoch ms, UTC-aligned). */
export interface ReceiptHour {
  readonly hour: number;
  readonly calls: number;
  readonly errorCount: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

const HOURLY_SQL = `SELECT (ts / 3600000) * 3600000 AS hour, count(*) AS calls, count(*) - sum(ok) AS errorCount,
  sum(input_tokens) AS inputTokens, sum(output_tokens) AS outputTokens
  FROM mcp_metrics WHERE ${WINDOW_WHERE} GROUP BY hour ORDER BY hour`;

/** The window's receipts summed per hour (only hours that have any), oldest first; the ts index bounds the scan. */
export function receiptsByHour(store: Store, window: ReceiptWindow): ReceiptHour[] {
  return statement(store, HOURLY_SQL).all(windowParams(window)) as ReceiptHour[];
}
