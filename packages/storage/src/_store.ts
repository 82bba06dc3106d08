/**
 * @module store
 * Opens colony's SQLite store: WAL, a busy timeout, foreign keys, migrations applied.
 * Every write runs in a BEGIN IMMEDIATE transaction, so writers from many processes
 * queue on SQLite's write lock (waiting up to the busy timeout) instead of failing
 * with SQLITE_BUSY half-way through a read-then-write. A wait that still times out is
 * refused as STORE_BUSY (retryable): the transaction never started.
 *
 * A store in an odd state still opens where it can (see _store-state.ts): a file this
 * process cannot write serves reads and refuses writes (STORE_READ_ONLY), a store
 * written by a newer colony serves reads and refuses writes (STORE_TOO_NEW), and a
 * file that is not a database, or is corrupt, refuses to open (STORE_CORRUPT).
 * Refusals are made by `refuse`, so the caller chooses their class (core: ColonyError).
 *
 * The database handle never leaves this package: query modules reach it through
 * `handleOf`, which index.ts does not export.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { indexPendingNow } from './_fts-batch';
import { pollForLock } from './_lock-poll';
import { MIGRATIONS } from './_migrations.generated';
import { Mutex } from './_mutex';
import {
  canWrite,
  checkNotTruncated,
  defaultRefuse,
  isCorrupt,
  openReadOnly,
  type RefuseStore,
  readOnlyRefusal,
  type StoreRefusal,
  schemaState,
  storeRefusalOf,
} from './_store-state';

import { isThenable, runInTx, type TxContext, txOf } from './_tx-context';
import { applyMigrations } from './migrate';
import * as schema from './schema';

export { isStoreBusy } from './_lock-poll';

/** Milliseconds a writer waits for another process's write lock before giving up. */
export const BUSY_TIMEOUT_MS = 15_000;
/** How long a closing store waits for the write lock to index its pending observations. */
const CLOSE_INDEX_WAIT_MS = 250;

export type Drizzle = BetterSQLite3Database<typeof schema>;

interface Handle {
  readonly sqlite: Database.Database;
  readonly db: Drizzle;
  readonly statements: Map<string, Database.Statement>;
  readonly prepared: Map<string, unknown>;
  /** Whether the open transaction is a write (BEGIN IMMEDIATE), not a read. */
  writing: boolean;
}

const handles = new WeakMap<Store, Handle>();
let createStore: (path: string, handle: Handle, state: StoreOpenState) => Store;

export interface OpenStoreOptions {
  /** File path of the database, or ':memory:'. Parent folders are created. */
  readonly path: string;
  /** Milliseconds a writer waits for another connection's write lock; default BUSY_TIMEOUT_MS. */
  readonly busyTimeoutMs?: number;
  /** Makes the error a refusal throws (default: a StoreError). */
  readonly refuse?: RefuseStore;
}

/**
 * Bookkeeping that rides along in the next write transaction instead of taking the
 * lock on its own (core: buffered call receipts). Called inside the transaction before
 * the caller's work; what it writes commits or rolls back with that work. It returns
 * (or resolves to) a callback run when the transaction ends, told whether it committed
 * (mark the rows written) or rolled back (they are not), or undefined when it wrote nothing.
 */
export type WriteRider = () => AfterCommit | Promise<AfterCommit>;
type AfterCommit = ((committed: boolean) => void) | undefined;

/** A transaction body: synchronous, or async (it holds the store's transaction until it settles). */
export type StoreBody<T> = () => T | Promise<T>;

export interface WriteOptions<T> {
  /** Milliseconds to wait for another writer's lock, for this write alone. */
  readonly busyTimeoutMs?: number;
  /**
   * Read while the lock is busy: the answer when the write is no longer needed. It runs
   * between synchronous lock tries, so on SQLite it must answer synchronously (the query
   * functions do, given a `Store`); a promise is refused by the read transaction.
   */
  readonly unlessSettled?: () => T | undefined | Promise<T | undefined>;
}

const BEGUN = Symbol('begun');

/** An open store. Pass it to the query functions of this package. */
export class Store {
  readonly path: string;
  /** Why this store refuses writes (read-only file, newer schema); undefined when it accepts them. */
  readonly refusal: StoreRefusal | undefined;
  readonly #refuse: RefuseStore;
  readonly #busyTimeoutMs: number;
  /** Outermost transactions of this process take turns on the one connection (FIFO). */
  readonly #mutex = new Mutex();
  #rider: WriteRider | undefined;
  #closed = false;

  readonly dialect = 'sqlite' as const;

  private constructor(path: string, handle: Handle, state: StoreOpenState) {
    this.path = path;
    this.refusal = state.refusal;
    this.#refuse = state.refuse;
    this.#busyTimeoutMs = state.busyTimeoutMs;
    handles.set(this, handle);
  }

  // openStore's way in: a static block, so the handle type stays out of the declarations.
  static {
    createStore = (path, handle, state) => new Store(path, handle, state);
  }

  /** The file path (or ':memory:'): what messages name. */
  get location(): string {
    return this.path;
  }

  /** Whether writes are accepted (false: every `write` throws the refusal). */
  get writable(): boolean {
    return this.refusal === undefined;
  }

  /**
   * Runs `fn` in a write transaction (BEGIN IMMEDIATE) and resolves to its result. `fn`
   * may be async: the transaction stays open until it settles, and the store's other
   * outermost writes and reads of this process wait their turn (FIFO) meanwhile. A
   * call made inside `fn` (across awaits too) is nested: a nested write is a savepoint
   * (its throw rolls back only its own work), a nested read just runs. A throw rolls
   * back everything `fn` wrote. A store that refuses writes rejects with its refusal
   * before `fn` runs; a lock held past the busy timeout rejects with STORE_BUSY.
   * `busyTimeoutMs` shortens the wait for this write alone. `unlessSettled` makes a
   * write that may turn out unneeded: while another writer holds the lock it is read
   * (outside the lock) between tries, and its answer, once defined, is returned
   * without writing (see _lock-poll.ts). A synchronous body that finds the store free
   * runs, and commits, before `write` returns.
   */
  write<T>(fn: StoreBody<T>, options: WriteOptions<T> = {}): Promise<T> {
    try {
      if (this.refusal) throw this.#refuse(this.refusal);
      const ctx = txOf(this);
      if (ctx) return this.#savepoint(ctx, fn);
      return this.#turn(() => this.#writeOuter(fn, options));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs `fn` against one consistent snapshot (a deferred read transaction) and
   * resolves to its result. Outside a transaction it waits for the store's open write
   * body, if any, to finish (it never sees rows another body has not committed);
   * inside one (nested) it just runs.
   */
  read<T>(fn: StoreBody<T>): Promise<T> {
    try {
      if (txOf(this)) return Promise.resolve(fn());
      return this.#turn(() => this.#readOuter(fn));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs `fn` holding the mutex; it is released as soon as `fn` settles (at once when synchronous). */
  #turn<T>(fn: () => T | Promise<T>): Promise<T> {
    const locked = (): T | Promise<T> => {
      let result: T | Promise<T>;
      try {
        result = fn();
      } catch (error) {
        this.#mutex.release();
        throw error;
      }
      if (!isThenable(result)) {
        this.#mutex.release();
        return result;
      }
      return Promise.resolve(result).finally(() => this.#mutex.release());
    };
    if (this.#mutex.tryAcquire()) return Promise.resolve(locked());
    return this.#mutex.acquire().then(locked);
  }

  #writeOuter<T>(fn: StoreBody<T>, options: WriteOptions<T>): T | Promise<T> {
    const { sqlite } = handleOf(this);
    const begun = this.#begin(sqlite, options);
    if (begun !== BEGUN) return begun;
    const rider = this.#rider;
    let committed: AfterCommit;
    const body = rider
      ? () => {
          const after = rider();
          if (!isThenable(after)) {
            committed = after;
            return fn();
          }
          return after.then((c) => {
            committed = c;
            return fn();
          });
        }
      : fn;
    return this.#settle(sqlite, body, (ok) => committed?.(ok));
  }

  /** BEGIN IMMEDIATE (waiting per the options), or the `unlessSettled` answer; errors translated. */
  #begin<T>(sqlite: Database.Database, options: WriteOptions<T>): T | typeof BEGUN {
    const begin = (): typeof BEGUN => {
      statement(this, 'BEGIN IMMEDIATE').run();
      handleOf(this).writing = true;
      return BEGUN;
    };
    try {
      const settled = options.unlessSettled;
      if (settled) {
        const timeoutMs = options.busyTimeoutMs ?? this.#busyTimeoutMs;
        return this.#withBusyTimeout(sqlite, 0, () =>
          pollForLock<T | typeof BEGUN>({
            attempt: begin,
            // better-sqlite3 refuses a body that returns a promise (a TypeError): see WriteOptions.
            settled: () => sqlite.transaction(settled).deferred() as T | undefined,
            version: () => statement(this, 'PRAGMA data_version').pluck().get(),
            timeoutMs,
          }),
        );
      }
      const wait = options.busyTimeoutMs;
      if (wait === undefined || wait === this.#busyTimeoutMs) return begin();
      // A shorter wait for this write only (bookkeeping that can try again later).
      return this.#withBusyTimeout(sqlite, wait, begin);
    } catch (error) {
      throw this.#translate(error);
    }
  }

  #readOuter<T>(fn: StoreBody<T>): T | Promise<T> {
    const { sqlite } = handleOf(this);
    try {
      statement(this, 'BEGIN').run();
    } catch (error) {
      throw this.#translate(error);
    }
    return this.#settle(sqlite, fn, undefined);
  }

  /** Runs the body of an open transaction in its context, then COMMIT, or ROLLBACK on a throw. */
  #settle<T>(
    sqlite: Database.Database,
    fn: StoreBody<T>,
    after: ((committed: boolean) => void) | undefined,
  ): T | Promise<T> {
    const fail = (error: unknown): never => {
      handleOf(this).writing = false;
      if (sqlite.open && sqlite.inTransaction) sqlite.exec('ROLLBACK');
      after?.(false);
      throw this.#translate(error);
    };
    const commit = (value: T): T => {
      try {
        statement(this, 'COMMIT').run();
      } catch (error) {
        fail(error);
      }
      handleOf(this).writing = false;
      after?.(true);
      return value;
    };
    let result: T | Promise<T>;
    try {
      result = runInTx(this, fn);
    } catch (error) {
      return fail(error);
    }
    if (!isThenable(result)) return commit(result);
    return Promise.resolve(result).then(commit, fail);
  }

  /** A nested write: a savepoint; siblings opened at once take turns. */
  async #savepoint<T>(ctx: TxContext, fn: StoreBody<T>): Promise<T> {
    if (!ctx.nested.tryAcquire()) await ctx.nested.acquire();
    try {
      const { sqlite } = handleOf(this);
      // One name for every level: savepoints here nest strictly (siblings take turns), and
      // RELEASE / ROLLBACK TO act on the innermost of that name. Prepared once per store.
      statement(this, 'SAVEPOINT colony_sp').run();
      try {
        const result = runInTx(this, fn);
        const value = isThenable(result) ? await result : result;
        statement(this, 'RELEASE colony_sp').run();
        return value;
      } catch (error) {
        if (sqlite.open && sqlite.inTransaction) {
          statement(this, 'ROLLBACK TO colony_sp').run();
          statement(this, 'RELEASE colony_sp').run();
        }
        throw error;
      }
    } finally {
      ctx.nested.release();
    }
  }

  #withBusyTimeout<T>(sqlite: Database.Database, ms: number, fn: () => T): T {
    sqlite.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`);
    try {
      return fn();
    } finally {
      sqlite.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
    }
  }

  /** Sets (or clears) the bookkeeping folded into each outermost write; see WriteRider. */
  setWriteRider(rider: WriteRider | undefined): void {
    this.#rider = rider;
  }

  /** SQLite's lock, read-only and corruption errors as the store's refusals; others unchanged. */
  #translate(error: unknown): unknown {
    const refusal = storeRefusalOf(error, this.path, this.#busyTimeoutMs);
    return refusal ? this.#refuse(refusal, error) : error;
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    const { sqlite } = handleOf(this);
    // Observations not indexed yet: index them now if the lock is free soon (else the next search will).
    if (!this.refusal) indexPendingNow(sqlite, CLOSE_INDEX_WAIT_MS, this.#busyTimeoutMs);
    this.#closed = true;
    sqlite.close();
  }
}

/**
 * @internal Whether the caller runs inside a transaction of `store`: a write's, or a
 * read's (`insideWriteOnly` tells them apart).
 */
export function insideWrite(store: Store): boolean {
  return txOf(store) !== undefined && handleOf(store).sqlite.inTransaction;
}

/** @internal Whether the caller runs inside a write transaction of `store`, not a read's. */
export function insideWriteOnly(store: Store): boolean {
  return insideWrite(store) && handleOf(store).writing;
}

interface StoreOpenState {
  readonly refusal: StoreRefusal | undefined;
  readonly refuse: RefuseStore;
  readonly busyTimeoutMs: number;
}

/**
 * Opens (creating if needed) a store and brings its schema up to date. A file this
 * process cannot write opens read-only; a file that is not a database, or is corrupt,
 * throws STORE_CORRUPT naming the file.
 */
export function openStore(options: OpenStoreOptions): Store {
  const { path } = options;
  const refuse = options.refuse ?? defaultRefuse;
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const onDisk = path !== ':memory:';
  const readOnly = onDisk && existsSync(path) && !canWrite(path);
  if (onDisk && !readOnly) makeDirs(dirname(path));
  let sqlite: Database.Database | undefined;
  let refusal: StoreRefusal | undefined;
  try {
    sqlite = readOnly ? openReadOnly(path) : new Database(path, { timeout: busyTimeoutMs });
    sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // A first read: a file that is not a database fails here (SQLITE_NOTADB), not on a later call.
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
    if (onDisk) checkNotTruncated(sqlite, path);
    if (onDisk && !readOnly) retryWhileBusy(() => sqlite?.pragma('journal_mode = WAL'));
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('temp_store = MEMORY');
    const schemaRefusal = schemaState(sqlite, MIGRATIONS, path);
    if (schemaRefusal) refusal = schemaRefusal;
    else if (readOnly) refusal = readOnlyRefusal(path);
    else applyMigrations(sqlite, MIGRATIONS);
  } catch (error) {
    sqlite?.close();
    if (isCorrupt(error)) throw refuse(storeRefusalOf(error, path, busyTimeoutMs) as StoreRefusal, error);
    throw error;
  }
  const db = drizzle({ client: sqlite, schema });
  return createStore(
    path,
    { sqlite, db, statements: new Map(), prepared: new Map(), writing: false },
    { refusal, refuse, busyTimeoutMs },
  );
}

/**
 * Switching a fresh file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY
 * at once, without its busy handler, when another connection opening the same file at
 * the same moment holds a shared lock (waiting could deadlock). Retry with backoff until
 * the busy timeout instead of failing the open.
 */
function retryWhileBusy<T>(fn: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, Math.min(2 ** attempt, 50) + Math.random() * 5);
    }
  }
}

/**
 * `mkdir -p` one level at a time. Node's `{ recursive: true }` spins forever when a
 * parent exists but mkdir still answers ENOENT (procfs: /proc/anything/x.db);
 * here that ENOENT is thrown.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let current = resolve(dir); !existsSync(current); current = dirname(current)) {
    missing.push(current);
    if (dirname(current) === current) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Another process made it first: fine, as long as it is a folder.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    }
  }
}

/** @internal The handle behind a store. Not exported from the package. */
export function handleOf(store: Store): Handle {
  const handle = handles.get(store);
  if (!handle || store.closed) throw new Error('store is closed');
  return handle;
}

/** @internal A prepared statement cached per store, for hot paths drizzle would rebuild. */
export function statement(store: Store, sql: string): Database.Statement {
  const handle = handleOf(store);
  let stmt = handle.statements.get(sql);
  if (!stmt) {
    stmt = handle.sqlite.prepare(sql);
    handle.statements.set(sql, stmt);
  }
  return stmt;
}

/**
 * @internal A drizzle query prepared once per store (with `sql.placeholder`s), for hot
 * paths where building the query on every call would cost more than running it.
 */
export function prepared<T>(store: Store, key: string, build: (db: Drizzle) => T): T {
  const handle = handleOf(store);
  let query = handle.prepared.get(key) as T | undefined;
  if (query === undefined) {
    query = build(handle.db);
    handle.prepared.set(key, query);
  }
  return query;
}

/** @internal */
export function dbOf(store: Store): Drizzle {
  return handleOf(store).db;
}
