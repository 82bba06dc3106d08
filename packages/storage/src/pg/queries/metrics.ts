/**
 * @module pg/queries/metrics
 * Tool-call receipts (`src/metrics.ts`) on PostgreSQL; `ok` is a boolean column here.
 */
import { count, gte } from 'drizzle-orm';
import type { Receipt } from '../../metrics';
import { callsSince, receiptColumnsOf } from '../../where/metrics';
import { pgTables } from '../schema';
import { inCallersWrite, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

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
