/**
 * @module store
 * Opens colony's SQLite store: WAL, a busy timeout, foreign keys, migrations applied.
 * Every write runs in a BEGIN IMMEDIATE transaction, so writers from many processes
 * queue on SQLite's write lock (waiting up to the busy timeout) instead of failing
 * with SQLITE_BUSY half-way through a read-then-write.
 *
 * The database handle never leaves this package: query modules reach it through
 * `handleOf`, which index.ts does not export.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { MIGRATIONS } from './_migrations.generated';
import { applyMigrations } from './migrate';
import * as schema from './schema';

/** Milliseconds a writer waits for another process's write lock before giving up. */
export const BUSY_TIMEOUT_MS = 15_000;

export type Drizzle = BetterSQLite3Database<typeof schema>;

interface Handle {
  readonly sqlite: Database.Database;
  readonly db: Drizzle;
  readonly statements: Map<string, Database.Statement>;
  readonly prepared: Map<string, unknown>;
}

const handles = new WeakMap<Store, Handle>();

export interface OpenStoreOptions {
  /** File path of the database, or ':memory:'. Parent folders are created. */
  readonly path: string;
}

/** An open store. Pass it to the query functions of this package. */
export class Store {
  readonly path: string;
  #closed = false;

  private constructor(path: string, handle: Handle) {
    this.path = path;
    handles.set(this, handle);
  }

  /** @internal Used by openStore only. */
  static _create(path: string, handle: Handle): Store {
    return new Store(path, handle);
  }

  /**
   * Runs `fn` in a write transaction (BEGIN IMMEDIATE). Nested calls become savepoints.
   * A throw rolls back everything `fn` wrote.
   */
  write<T>(fn: () => T): T {
    const { sqlite } = handleOf(this);
    if (sqlite.inTransaction) return sqlite.transaction(fn)();
    return sqlite.transaction(fn).immediate();
  }

  /** Runs `fn` against one consistent snapshot (a deferred read transaction). */
  read<T>(fn: () => T): T {
    const { sqlite } = handleOf(this);
    if (sqlite.inTransaction) return fn();
    return sqlite.transaction(fn).deferred();
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    const { sqlite } = handleOf(this);
    this.#closed = true;
    sqlite.close();
  }
}

/** Opens (creating if needed) a store and brings its schema up to date. */
export function openStore(options: OpenStoreOptions): Store {
  const { path } = options;
  if (path !== ':memory:') makeDirs(dirname(path));
  const sqlite = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (path !== ':memory:') retryWhileBusy(() => sqlite.pragma('journal_mode = WAL'));
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('temp_store = MEMORY');
    applyMigrations(sqlite, MIGRATIONS);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const db = drizzle({ client: sqlite, schema });
  return Store._create(path, { sqlite, db, statements: new Map(), prepared: new Map() });
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
