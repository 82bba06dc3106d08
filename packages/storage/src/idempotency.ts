/**
 * @module idempotency
 * First results of mutating calls, keyed by (tool, idempotency_key). Read and written
 * inside the same write transaction as the call itself, so a retry racing the original
 * either sees its committed result or waits for it: never a second write.
 */
import { dbOf, type Store } from './_store';
import { idempotencyKeys } from './schema';
import { idempotencyKeyIs } from './where/idempotency';

export interface IdempotentResult {
  readonly argsHash: string;
  readonly result: unknown;
}

export function findIdempotentResult(store: Store, tool: string, key: string): IdempotentResult | undefined {
  return dbOf(store)
    .select({ argsHash: idempotencyKeys.argsHash, result: idempotencyKeys.result })
    .from(idempotencyKeys)
    .where(idempotencyKeyIs(idempotencyKeys, tool, key))
    .get();
}

export function saveIdempotentResult(
  store: Store,
  tool: string,
  key: string,
  argsHash: string,
  result: unknown,
  now: number,
): void {
  dbOf(store).insert(idempotencyKeys).values({ tool, key, argsHash, result, createdAt: now }).run();
}

/** Overwrites the stored result of (tool, key): a reservation's pending marker becomes the answer. */
export function replaceIdempotentResult(store: Store, tool: string, key: string, result: unknown, now: number): void {
  dbOf(store)
    .update(idempotencyKeys)
    .set({ result, createdAt: now })
    .where(idempotencyKeyIs(idempotencyKeys, tool, key))
    .run();
}

/** Forgets (tool, key): a failed call releases its reservation so a retry runs again. */
export function deleteIdempotentResult(store: Store, tool: string, key: string): void {
  dbOf(store)
    .delete(idempotencyKeys)
    .where(idempotencyKeyIs(idempotencyKeys, tool, key))
    .run();
}
