/**
 * @module pg/store/body
 * The shapes a PgStore's callers hand it, as the SQLite store's: write options and the
 * write rider (bookkeeping folded into the next outermost write).
 */

/** Runs when the transaction ends, told whether it committed (mark the rider's rows written). */
export type AfterCommit = ((committed: boolean) => void) | undefined;

/**
 * Bookkeeping that rides along in the next outermost write, inside its transaction and
 * before the caller's work; what it writes commits or rolls back with that work.
 */
export type WriteRider = () => AfterCommit | Promise<AfterCommit>;

export interface WriteOptions<T> {
  /** Milliseconds to wait for other transactions' locks, for this write alone. */
  readonly busyTimeoutMs?: number;
  /** Read (outside the transaction) before each new try: its answer, once defined, is returned without writing. */
  readonly unlessSettled?: () => T | undefined | Promise<T | undefined>;
}
