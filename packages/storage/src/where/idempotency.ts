/**
 * @module where/idempotency
 * The (tool, key) condition of the idempotency queries, shared by `src/idempotency.ts`
 * (SQLite) and `src/pg/queries/idempotency.ts` (PostgreSQL).
 */
import { and, eq } from 'drizzle-orm';
import type { idempotencyKeys } from '../schema';
import type { ColsOf } from './_columns';

/** The stored result of (tool, key). */
export const idempotencyKeyIs = (t: ColsOf<typeof idempotencyKeys, 'tool' | 'key'>, tool: string, key: string) =>
  and(eq(t.tool, tool), eq(t.key, key));
