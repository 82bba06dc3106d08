/**
 * @module pg/store/handle
 * What a PgStore holds that query functions need and nobody else sees (like
 * `handleOf` of the SQLite store): the pool, drizzle over it, and how to make drizzle
 * over one transaction's client. `pgDb` / `pgClient` answer the transaction the caller
 * is inside, or the pool (one statement, autocommit) outside any.
 */
import type { Pool, PoolClient } from 'pg';
import type { PgQueryable } from '../migrate';
import { type PgDrizzle, txOf } from './_context';

export interface PgHandle {
  readonly pool: Pool;
  readonly db: PgDrizzle;
  readonly drizzleOn: (client: PoolClient) => PgDrizzle;
  /** The URL, password included: only for scrubbing messages, never shown. */
  readonly url: string;
}

const handles = new WeakMap<object, PgHandle>();
const closed = new WeakSet<object>();

export function setHandle(store: object, handle: PgHandle): void {
  handles.set(store, handle);
}

export function markClosed(store: object): void {
  closed.add(store);
}

/** @internal The handle behind a store; throws once it is closed. */
export function pgHandleOf(store: object): PgHandle {
  const handle = handles.get(store);
  if (!handle || closed.has(store)) throw new Error('store is closed');
  return handle;
}

/** @internal drizzle on the caller's transaction of `store`, or on its pool. */
export function pgDb(store: object): PgDrizzle {
  return txOf(store)?.db ?? pgHandleOf(store).db;
}

/** @internal For raw SQL (`$n` parameters): the transaction's client, or the pool. */
export function pgClient(store: object): PgQueryable {
  return txOf(store)?.client ?? pgHandleOf(store).pool;
}

/**
 * @internal Runs `fn` in the caller's write transaction as it is (no savepoint: each one
 * costs a round trip), or in a write of its own outside any. For bookkeeping the caller
 * already wraps in a savepoint of its own (the receipts rider), as on SQLite.
 */
export async function inCallersWrite<T>(
  store: { write<R>(fn: () => Promise<R>): Promise<R> },
  fn: () => Promise<T>,
): Promise<T> {
  const tx = txOf(store);
  return tx && !tx.readOnly ? fn() : store.write(fn);
}
