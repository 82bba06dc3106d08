/**
 * @module fts-batch
 * The history's full-text index (`observations_fts`) is written in batches, not one
 * FTS5 segment per committed row. A single-row commit that also indexed its row wrote
 * about 6 of its 14 WAL pages into the index (a new segment, the structure and averages
 * records, docsize, idx); a batch of rows writes them once.
 *
 * Rows with an id above `observations_fts_indexed.through` are not indexed yet (ids
 * only grow: AUTOINCREMENT). `indexPending` indexes all of them in one statement and
 * moves the mark, inside the caller's write transaction; what calls it:
 * - the insert path, once FTS_BATCH rows are pending (the index lags by at most that
 *   many rows between the other triggers);
 * - every search, first (`indexPendingObservations`), so a search sees every committed
 *   observation;
 * - the MCP server when it idles, and a store's clean close.
 * A crash loses nothing: the rows are committed, and the next of these indexes them.
 * The delete and update triggers act on indexed rows only (migration 0014).
 *
 * This module reaches only the connection, so the store's close can call it.
 */
import type Database from 'better-sqlite3';

/** Rows the insert path lets wait before it indexes them all in its own transaction. */
export const FTS_BATCH = 64;

const PENDING_SQL = `SELECT (SELECT coalesce(max(id), 0) FROM observations) AS newest, through
  FROM observations_fts_indexed WHERE id = 1`;
const INDEX_SQL = `INSERT INTO observations_fts (rowid, content)
  SELECT id, content FROM observations WHERE id > ? AND id <= ? ORDER BY id`;
const MARK_SQL = 'UPDATE observations_fts_indexed SET through = ? WHERE id = 1';

/** The mark as this connection last saw it (another process may have moved it since). */
const lastSeen = new WeakMap<Database.Database, number>();

interface Statements {
  readonly pending: Database.Statement;
  readonly index: Database.Statement;
  readonly mark: Database.Statement;
}
const prepared = new WeakMap<Database.Database, Statements>();

function statementsOf(sqlite: Database.Database): Statements {
  let s = prepared.get(sqlite);
  if (!s) {
    s = { pending: sqlite.prepare(PENDING_SQL), index: sqlite.prepare(INDEX_SQL), mark: sqlite.prepare(MARK_SQL) };
    prepared.set(sqlite, s);
  }
  return s;
}

/** The newest observation id and the index's mark, read now. */
export function indexState(sqlite: Database.Database): { newest: number; through: number } {
  const row = statementsOf(sqlite).pending.get() as { newest: number; through: number } | undefined;
  // A store migrated by this colony always has the row; answer "nothing pending" without it.
  const state = row ?? { newest: 0, through: 0 };
  lastSeen.set(sqlite, state.through);
  return state;
}

/**
 * Indexes every pending observation and moves the mark; returns how many rows it
 * indexed. Call inside a write transaction of `sqlite`.
 */
export function indexPending(sqlite: Database.Database): number {
  const { newest, through } = indexState(sqlite);
  if (newest <= through) return 0;
  const s = statementsOf(sqlite);
  s.index.run(through, newest);
  s.mark.run(newest);
  lastSeen.set(sqlite, newest);
  return newest - through;
}

/**
 * After the insert path appended observation `id` (inside its write transaction): indexes
 * the pending rows once FTS_BATCH of them wait. Costs no statement below the threshold.
 */
export function indexIfDue(sqlite: Database.Database, id: number): void {
  const seen = lastSeen.get(sqlite) ?? indexState(sqlite).through;
  if (id - seen >= FTS_BATCH) indexPending(sqlite);
}

/**
 * Indexes the pending rows in a write transaction of its own, waiting at most
 * `busyTimeoutMs` for the write lock; false when it could not (the lock stayed held, or
 * the connection is inside a transaction). For a store's close: what it leaves, the
 * next search or idle time indexes.
 */
export function indexPendingNow(sqlite: Database.Database, busyTimeoutMs: number, restoreMs: number): boolean {
  if (sqlite.inTransaction || sqlite.readonly) return false;
  const { newest, through } = indexState(sqlite);
  if (newest <= through) return true;
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  try {
    sqlite.transaction(() => indexPending(sqlite)).immediate();
    return true;
  } catch {
    return false;
  } finally {
    sqlite.pragma(`busy_timeout = ${restoreMs}`);
  }
}
