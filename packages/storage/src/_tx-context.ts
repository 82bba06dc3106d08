/**
 * @module store/tx-context
 * Which store transaction the running code is inside, carried across `await`s by
 * AsyncLocalStorage. A nested `write` becomes a savepoint and a nested `read` just runs
 * only when the context says "inside this store's transaction"; anything else queues on
 * the store's mutex. The value is an object so a backend can carry more in it (the
 * Postgres store: its transaction's client).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Mutex } from './_mutex';

export interface TxContext {
  /** The store whose transaction this is. */
  readonly owner: object;
  /** The enclosing context (another store's, or this store's outer savepoint level). */
  readonly parent: TxContext | undefined;
  /** Serializes sibling savepoints opened concurrently in this context. */
  readonly nested: Mutex;
}

const contexts = new AsyncLocalStorage<TxContext>();

/** The innermost context of `owner`'s transaction the caller is in, or undefined. */
export function txOf(owner: object): TxContext | undefined {
  for (let ctx = contexts.getStore(); ctx; ctx = ctx.parent) if (ctx.owner === owner) return ctx;
  return undefined;
}

/** Runs `fn` inside a new context level of `owner`'s transaction. */
export function runInTx<T>(owner: object, fn: () => T): T {
  const ctx: TxContext = { owner, parent: contexts.getStore(), nested: new Mutex() };
  return contexts.run(ctx, fn);
}

/** Whether `value` is a promise (or any thenable) to await. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
