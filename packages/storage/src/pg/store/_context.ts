/**
 * @module pg/store/context
 * Which PostgreSQL transaction the running code is inside, per store: an
 * AsyncLocalStorage carries it across awaits, so a nested `write` becomes a savepoint
 * and a nested `read` or query function runs on the transaction's own client. A map
 * keyed by store, so a body that opens another store's transaction keeps its own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PoolClient } from 'pg';

/** The drizzle handle query functions build on (no relational schema: builders only). */
export type PgDrizzle = NodePgDatabase<Record<string, never>>;

/** An open transaction of one store on one pooled client. */
export interface PgTx {
  readonly client: PoolClient;
  readonly db: PgDrizzle;
  /** A read's snapshot (REPEATABLE READ READ ONLY): a write inside it is refused. */
  readonly readOnly: boolean;
  /** What every level of one transaction shares. */
  readonly state: {
    /** Savepoints opened so far in this transaction (their names are numbered by it). */
    savepoints: number;
    /**
     * Set once the transaction has ended: code it left running (a timer armed inside the
     * body, a write not awaited) still carries its context, and must not reach a client
     * that is back in the pool, maybe inside another caller's transaction.
     */
    done: boolean;
  };
  /** This level's last savepoint, opened or queued: siblings started at once take turns. */
  turn?: Promise<unknown>;
}

/** The level inside a savepoint of `tx`: the same transaction, a turn of its own. */
export function nestedTx(tx: PgTx): PgTx {
  return { client: tx.client, db: tx.db, readOnly: tx.readOnly, state: tx.state };
}

const current = new AsyncLocalStorage<ReadonlyMap<object, PgTx>>();

/** The transaction of `store` the caller is inside, if any. */
export function txOf(store: object): PgTx | undefined {
  const tx = current.getStore()?.get(store);
  return tx?.state.done ? undefined : tx;
}

/** Runs `fn` inside `tx` of `store` (awaits within `fn` stay inside). */
export function runInTx<T>(store: object, tx: PgTx, fn: () => T | Promise<T>): Promise<T> {
  const next = new Map(current.getStore() ?? []);
  next.set(store, tx);
  return current.run(next, async () => fn());
}
