/**
 * @module metrics
 * Tool-call receipts (`mcp_metrics`): one row per call with its cost and outcome.
 */
import { and, count, eq, gte } from 'drizzle-orm';
import { dbOf, type Store, statement } from './_store';
import { mcpMetrics } from './schema';

export type Receipt = Omit<typeof mcpMetrics.$inferSelect, 'id'>;

const INSERT_SQL = `INSERT INTO mcp_metrics (ts, operation, session_id, duration_ms, input_tokens, output_tokens, ok, error_code, error_message)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Writes receipts in one transaction. */
export function insertReceipts(store: Store, receipts: readonly Receipt[]): void {
  if (receipts.length === 0) return;
  store.write(() => {
    const insert = statement(store, INSERT_SQL);
    for (const r of receipts) {
      insert.run(
        r.ts,
        r.operation,
        r.sessionId,
        r.durationMs,
        r.inputTokens,
        r.outputTokens,
        r.ok ? 1 : 0,
        r.errorCode,
        r.errorMessage,
      );
    }
  });
}

/** How many calls of `operation` a session made since `sinceTs`. */
export function countCalls(store: Store, sessionId: string, operation: string, sinceTs = 0): number {
  const row = dbOf(store)
    .select({ n: count() })
    .from(mcpMetrics)
    .where(and(eq(mcpMetrics.sessionId, sessionId), eq(mcpMetrics.operation, operation), gte(mcpMetrics.ts, sinceTs)))
    .get();
  return row?.n ?? 0;
}

export function listReceipts(store: Store, sinceTs: number): Receipt[] {
  return dbOf(store)
    .select({
      ts: mcpMetrics.ts,
      operation: mcpMetrics.operation,
      sessionId: mcpMetrics.sessionId,
      durationMs: mcpMetrics.durationMs,
      inputTokens: mcpMetrics.inputTokens,
      outputTokens: mcpMetrics.outputTokens,
      ok: mcpMetrics.ok,
      errorCode: mcpMetrics.errorCode,
      errorMessage: mcpMetrics.errorMessage,
    })
    .from(mcpMetrics)
    .where(gte(mcpMetrics.ts, sinceTs))
    .all();
}

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
