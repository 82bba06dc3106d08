/**
 * @module metrics
 * Tool-call receipts (`mcp_metrics`): one row per call with its cost and outcome.
 * Sums over a time window (savings_report, `colony gain`): receipt-summaries.ts.
 */
import { count, gte } from 'drizzle-orm';
import { dbOf, insideWrite, type Store, statement } from './_store';
import { refineTokenCounts, type TokenCountRefinement } from './observations';
import { mcpMetrics } from './schema';
import { heartbeatSessions } from './session-heartbeats';
import { callsSince, receiptColumnsOf } from './where/metrics';

export type Receipt = Omit<typeof mcpMetrics.$inferSelect, 'id'>;

const INSERT_SQL = `INSERT INTO mcp_metrics (ts, operation, session_id, duration_ms, input_tokens, output_tokens, ok, error_code, error_message)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Writes receipts in one transaction. */
export async function insertReceipts(store: Store, receipts: readonly Receipt[]): Promise<void> {
  if (receipts.length === 0) return;
  const run = () => {
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
  };
  // Inside a caller's transaction (the receipts rider), no savepoint of its own.
  if (insideWrite(store)) run();
  else await store.write(run);
}

/** What the receipts rider writes in one go: receipts, the callers' heartbeats, counted token counts. */
export interface Bookkeeping {
  readonly receipts: readonly Receipt[];
  readonly beats: ReadonlyArray<{ readonly id: string; readonly ts: number }>;
  readonly refinements: readonly TokenCountRefinement[];
}

/**
 * `insertReceipts`, `heartbeatSessions` and `refineTokenCounts` together, in the caller's
 * transaction (or one of its own): PostgreSQL's twin is one statement (one round trip).
 */
export async function writeBookkeeping(store: Store, b: Bookkeeping): Promise<void> {
  const run = async () => {
    await insertReceipts(store, b.receipts);
    await heartbeatSessions(store, b.beats);
    await refineTokenCounts(store, b.refinements);
  };
  if (insideWrite(store)) await run();
  else await store.write(run);
}

/** How many calls of `operation` a session made since `sinceTs`. */
export function countCalls(store: Store, sessionId: string, operation: string, sinceTs = 0): number {
  const row = dbOf(store)
    .select({ n: count() })
    .from(mcpMetrics)
    .where(callsSince(mcpMetrics, sessionId, operation, sinceTs))
    .get();
  return row?.n ?? 0;
}

export function listReceipts(store: Store, sinceTs: number): Receipt[] {
  return dbOf(store).select(receiptColumnsOf(mcpMetrics)).from(mcpMetrics).where(gte(mcpMetrics.ts, sinceTs)).all();
}
