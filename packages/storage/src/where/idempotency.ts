/**
 * @module where/idempotency
 * The (tool, key) condition of the idempotency queries, shared by `src/idempotency.ts`
 * (SQLite) and `src/pg/queries/idempotency.ts` (PostgreSQL).
 */
import { and, eq } from 'drizzle-orm';
import type { Col } from './_columns';

/** The stored result of (tool, key). */
export const idempotencyKeyIs = (
  t: { readonly tool: Col<string>; readonly key: Col<string> },
  tool: string,
  key: string,
) => and(eq(t.tool, tool), eq(t.key, key));
