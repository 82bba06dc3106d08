/**
 * @module pg/store/pg-store
 * colony's store on PostgreSQL, with the contract of the SQLite `Store`: `write(fn)`
 * runs `fn` (sync or async) in one transaction and resolves to its result, `read(fn)`
 * on one snapshot; a call made inside `fn`, across awaits, is nested (a write becomes
 * a savepoint, a read runs on the same client). See docs/scale-out.md.
 *
 * A write is READ COMMITTED on one pooled client: claims are decided by unique and
 * partial unique indexes (`INSERT ... ON CONFLICT DO NOTHING`) and guarded updates,
 * which that level makes safe, never by a read followed by a write. Its lock waits are
 * bounded (`lock_timeout`, from `busyTimeoutMs`); a lock timeout, deadlock or
 * serialization failure rolls back and runs `fn` again (so a write body must not act
 * outside the store before it returns), until the wait is spent: STORE_BUSY.
 */
import type { RefuseStore, StoreRefusal } from '../../_store-state';
import type { WriteOptions, WriteRider } from './_body';
import { nestedTx, type PgTx, runInTx, txOf } from './_context';
import { busyRefusal, connectFailed, isConnectFailure, scrubbed } from './_errors';
import { markClosed, type PgHandle, pgHandleOf, setHandle } from './_handle';
import { retryConflicts } from './_retry';
import { inSavepoint, inTransaction } from './_transaction';

export interface PgStoreState {
  readonly location: string;
  readonly refusal: StoreRefusal | undefined;
  readonly refuse: RefuseStore;
  readonly busyTimeoutMs: number;
}

export class PgStore {
  readonly dialect = 'postgres' as const;
  /** The PostgreSQL twins of the query functions, by SQLite name (attached by openPgStore; see _dialect.ts). */
  queries: Readonly<Record<string, unknown>> | undefined;
  /** The URL with its password masked: what messages name. */
  readonly location: string;
  /** Why this store refuses writes (a newer schema); undefined when it accepts them. */
  readonly refusal: StoreRefusal | undefined;
  readonly #refuse: RefuseStore;
  readonly #busyTimeoutMs: number;
  #rider: WriteRider | undefined;
  #closed = false;

  constructor(handle: PgHandle, state: PgStoreState) {
    this.location = state.location;
    this.refusal = state.refusal;
    this.#refuse = state.refuse;
    this.#busyTimeoutMs = state.busyTimeoutMs;
    setHandle(this, handle);
  }

  /** Whether writes are accepted (false: every `write` rejects with the refusal). */
  get writable(): boolean {
    return this.refusal === undefined;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sets (or clears) the bookkeeping folded into each outermost write (see WriteRider). */
  setWriteRider(rider: WriteRider | undefined): void {
    this.#rider = rider;
  }

  async write<T>(fn: () => T | Promise<T>, options: WriteOptions<T> = {}): Promise<T> {
    if (this.refusal) throw this.#refuse(this.refusal);
    const tx = txOf(this);
    if (tx) {
      if (tx.readOnly) throw new Error(`a write inside a read of the store ${this.location}`);
      return inSavepoint(tx, () => runInTx(this, nestedTx(tx), fn));
    }
    const waitMs = options.busyTimeoutMs ?? this.#busyTimeoutMs;
    const settled = options.unlessSettled;
    return retryConflicts({
      attempt: (deadline) => this.#run({ readOnly: false, deadline }, fn, this.#rider),
      settled: settled && (() => this.read(settled)),
      waitMs,
      busy: (cause) => this.#refuse(busyRefusal(this.location, waitMs), cause),
    });
  }

  /** Runs `fn` on one snapshot (REPEATABLE READ READ ONLY), or in the caller's transaction. */
  async read<T>(fn: () => T | Promise<T>): Promise<T> {
    if (txOf(this)) return fn();
    return this.#run({ readOnly: true, deadline: Date.now() + this.#busyTimeoutMs }, fn, undefined);
  }

  async #run<T>(
    mode: { readOnly: boolean; deadline: number },
    fn: () => T | Promise<T>,
    rider: WriteRider | undefined,
  ): Promise<T> {
    const handle = pgHandleOf(this);
    const client = await handle.pool.connect().catch((error: unknown) => {
      throw connectFailed(error, handle.url, this.location);
    });
    const tx: PgTx = {
      client,
      db: handle.drizzleOn(client),
      readOnly: mode.readOnly,
      state: { savepoints: 0, done: false },
    };
    try {
      return await inTransaction(tx, mode.deadline, (body) => runInTx(this, tx, body), fn, rider);
    } catch (error) {
      if (isConnectFailure(error)) throw connectFailed(error, handle.url, this.location);
      throw scrubbed(error, handle.url);
    }
  }

  /** Ends the pool: every client disconnects. Later calls reject ('store is closed'). */
  async close(): Promise<void> {
    if (this.#closed) return;
    const { pool } = pgHandleOf(this);
    this.#closed = true;
    markClosed(this);
    await pool.end();
  }
}
