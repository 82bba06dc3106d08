/**
 * @module store/tx-context
 * Which store transaction the running code is inside, carried across `await`s by
 * AsyncLocalStorage. A nested `write` becomes a savepoint and a nested `read` just runs
 * only when the context says "inside this store's transaction"; anything else queues on
 * the store's mutex. The value is an object so a backend can carry more in it (the
 * Postgres store: its transaction's client).
 *
 * The storage is enabled only while some transaction body is open. On Node 20 and 22 an
 * enabled AsyncLocalStorage runs a hook on every promise the process creates (the MCP
 * transport's, the registry's, ...): about a fifth of a `task_post`'s server CPU when it
 * stayed on. So the last level to settle disables it again; a later `runInTx` enables
 * it. A level that has settled is `done`: code it left running (a promise not awaited
 * by its body) is no longer inside that transaction.
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
  /** Set when this level's body has settled. */
  done: boolean;
}

const contexts = new AsyncLocalStorage<TxContext>();
/** Levels whose bodies have not settled yet, over every store of the process. */
let open = 0;

/** The innermost open context of `owner`'s transaction the caller is in, or undefined. */
export function txOf(owner: object): TxContext | undefined {
  if (open === 0) return undefined;
  for (let ctx = contexts.getStore(); ctx; ctx = ctx.parent) if (ctx.owner === owner && !ctx.done) return ctx;
  return undefined;
}

/** Runs `fn` inside a new context level of `owner`'s transaction. */
export function runInTx<T>(owner: object, fn: () => T): T {
  const ctx: TxContext = { owner, parent: contexts.getStore(), nested: new Mutex(), done: false };
  const leave = (): void => {
    ctx.done = true;
    if (--open === 0) contexts.disable();
  };
  open++;
  let result: T;
  try {
    result = contexts.run(ctx, fn);
  } catch (error) {
    leave();
    throw error;
  }
  if (!isThenable(result)) {
    leave();
    return result;
  }
  return result.then(
    (value) => {
      leave();
      return value;
    },
    (error: unknown) => {
      leave();
      throw error;
    },
  ) as T;
}

/** Whether `value` is a promise (or any thenable) to await. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
