/**
 * @module pg/queries/idempotency
 * The idempotency-key queries of `src/idempotency.ts` on PostgreSQL: same names,
 * arguments and results, async, on the caller's transaction. The (tool, key) primary
 * key makes a racing second save fail as on SQLite.
 */
import type { IdempotentResult } from '../../idempotency';
import { idempotencyKeyIs } from '../../where/idempotency';
import { pgTables } from '../schema';
import { pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { fromJson, toJson } from './_common';

const { idempotencyKeys } = pgTables;

/**
 * Also takes a lock on (tool, key) until the caller's transaction ends: callers read,
 * run the call, then save in one write, which SQLite's write lock serializes; here two
 * racers would both find nothing and both run. The second now waits for the first's
 * commit and finds its result.
 */
export async function findIdempotentResult(
  store: PgStore,
  tool: string,
  key: string,
): Promise<IdempotentResult | undefined> {
  await pgClient(store).query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify([tool, key])]);
  const rows = await pgDb(store)
    .select({ argsHash: idempotencyKeys.argsHash, result: idempotencyKeys.result })
    .from(idempotencyKeys)
    .where(idempotencyKeyIs(idempotencyKeys, tool, key))
    .limit(1);
  const row = rows[0];
  return row && { argsHash: row.argsHash as string, result: fromJson(row.result) };
}

export async function saveIdempotentResult(
  store: PgStore,
  tool: string,
  key: string,
  argsHash: string,
  result: unknown,
  now: number,
): Promise<void> {
  await pgDb(store)
    .insert(idempotencyKeys)
    .values({ tool, key, argsHash, result: toJson(result), createdAt: now });
}

export async function replaceIdempotentResult(
  store: PgStore,
  tool: string,
  key: string,
  result: unknown,
  now: number,
): Promise<void> {
  await pgDb(store)
    .update(idempotencyKeys)
    .set({ result: toJson(result), createdAt: now })
    .where(idempotencyKeyIs(idempotencyKeys, tool, key));
}

export async function deleteIdempotentResult(store: PgStore, tool: string, key: string): Promise<void> {
  await pgDb(store)
    .delete(idempotencyKeys)
    .where(idempotencyKeyIs(idempotencyKeys, tool, key));
}
