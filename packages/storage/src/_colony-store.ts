/**
 * @module colony-store
 * What services use of a store, whichever the dialect: `Store` (SQLite) and `PgStore`
 * (PostgreSQL, @swarm/storage/pg) both implement it. The query functions exported by
 * index.ts take it first and dispatch on `dialect` (see _dialect.ts).
 */
import type { StoreRefusal } from './_store-state';

export type StoreDialect = 'sqlite' | 'postgres';

/** Bookkeeping folded into the next outermost write (see WriteRider in _store.ts). */
export type ColonyWriteRider = () => AfterWrite | Promise<AfterWrite>;
/** Run when the rider's transaction ends: committed, or rolled back. */
type AfterWrite = ((committed: boolean) => void) | undefined;

export interface ColonyWriteOptions<T> {
  readonly busyTimeoutMs?: number;
  /** Synchronous on SQLite (see `WriteOptions` in _store.ts); may be async on PostgreSQL. */
  readonly unlessSettled?: () => T | undefined | Promise<T | undefined>;
}

export interface ColonyStore {
  readonly dialect: StoreDialect;
  /** Where the store lives, safe to print: a file path, or a URL with its password masked. */
  readonly location: string;
  /** Why this store refuses writes; undefined when it accepts them. */
  readonly refusal: StoreRefusal | undefined;
  readonly writable: boolean;
  readonly closed: boolean;
  write<T>(fn: () => T | Promise<T>, options?: ColonyWriteOptions<T>): Promise<T>;
  read<T>(fn: () => T | Promise<T>): Promise<T>;
  setWriteRider(rider: ColonyWriteRider | undefined): void;
  close(): void | Promise<void>;
}
