/**
 * @module pg/store/errors
 * PostgreSQL failures as the store's contract: lock and serialization conflicts are
 * retried and, once the wait is spent, refused as STORE_BUSY (the SQLite store's
 * refusal, see _store-state.ts); a server that cannot be reached is PG_CONNECT_FAILED.
 * Every message that leaves the store has the URL's password masked.
 */
import { STORE_BUSY_RETRY_AFTER_MS, type StoreRefusal } from '../../_store-state';
import { scrubSecret } from '../_url';
import { PgStoreError } from '../open';

/** lock_not_available (a lock_timeout ran out), serialization_failure, deadlock_detected. */
const CONFLICTS = new Set(['55P03', '40001', '40P01']);

/**
 * The SQLSTATE (or Node's errno code) of an error, '' when it has none. drizzle wraps a
 * failed query's error in a DrizzleQueryError (`cause`): the code is looked for there too.
 */
export function sqlStateOf(error: unknown): string {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return '';
}

/** A conflict with another transaction that a new attempt may not meet. */
export function isConflict(error: unknown): boolean {
  return CONFLICTS.has(sqlStateOf(error));
}

/**
 * The server is unreachable, refused the login, went away, or the database is missing:
 * Node's socket errors, SQLSTATE classes 08 (connection) and 28 (authorization),
 * 57P01-57P03 (shut down), 3D000 (no such database), and node-postgres's own
 * "Connection terminated" errors (no code).
 */
export function isConnectFailure(error: unknown): boolean {
  const code = sqlStateOf(error);
  if (/^E[A-Z]+$/.test(code)) return true;
  if (/^(08|28)/.test(code) || /^57P0[123]$/.test(code) || code === '3D000') return true;
  const cause = (error as { cause?: unknown } | null)?.cause;
  const message = `${error instanceof Error ? error.message : ''} ${cause instanceof Error ? cause.message : ''}`;
  return code === '' && /connection terminated|timeout exceeded when trying to connect/i.test(message);
}

export function connectFailed(error: unknown, url: string, location: string): PgStoreError {
  const why = scrubSecret(error instanceof Error ? error.message : String(error), url);
  return new PgStoreError('PG_CONNECT_FAILED', `cannot connect to ${location}: ${why}`);
}

/** The refusal of a write whose locks stayed taken for the whole wait (SQLite's wording). */
export function busyRefusal(location: string, waitedMs: number): StoreRefusal {
  return {
    code: 'STORE_BUSY',
    message: `the store ${location} stayed locked by another writer for more than ${waitedMs} ms; nothing was written: retry the call`,
    details: { retryable: true, retry_after_ms: STORE_BUSY_RETRY_AFTER_MS, db_path: location },
  };
}

/** `error` with any trace of the URL's password removed from its message (in place). */
export function scrubbed(error: unknown, url: string): unknown {
  if (error instanceof Error) error.message = scrubSecret(error.message, url);
  return error;
}
