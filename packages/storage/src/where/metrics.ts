/**
 * @module where/metrics
 * The receipt (`mcp_metrics`) condition and selection shared by `src/metrics.ts`
 * (SQLite) and `src/pg/queries/metrics.ts` (PostgreSQL).
 */
import { and, eq, gte } from 'drizzle-orm';
import type { mcpMetrics } from '../schema';
import { type ColsOf, pickColumns } from './_columns';

/** The `mcpMetrics` columns of a receipt. */
export type ReceiptCols = ColsOf<
  typeof mcpMetrics,
  'ts' | 'operation' | 'sessionId' | 'durationMs' | 'inputTokens' | 'outputTokens' | 'ok' | 'errorCode' | 'errorMessage'
>;

/** A session's calls of `operation` since `sinceTs`. */
export const callsSince = (m: ReceiptCols, sessionId: string, operation: string, sinceTs: number) =>
  and(eq(m.sessionId, sessionId), eq(m.operation, operation), gte(m.ts, sinceTs));

const RECEIPT_KEYS = [
  'ts',
  'operation',
  'sessionId',
  'durationMs',
  'inputTokens',
  'outputTokens',
  'ok',
  'errorCode',
  'errorMessage',
] as const;

/** The selection of a receipt (every column but the id), from either dialect's table. */
export const receiptColumnsOf = <T extends ReceiptCols>(m: T) => pickColumns(m, RECEIPT_KEYS);
