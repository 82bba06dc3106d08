/**
 * @module observations
 * The append-only history. Inserts go through cached prepared statements (the hot
 * path of every post and hook). The FTS5 index is written in batches (see
 * _fts-batch.ts): a search first indexes what is pending (`indexPendingObservations`),
 * so every committed observation is searchable; `keywordSearch` and `liveMatches`
 * alone read what is indexed.
 */
import type Database from 'better-sqlite3';
import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import { FTS_BATCH, indexIfDue, indexPending, indexState } from './_fts-batch';
import { isStoreBusy } from './_lock-poll';
import { dbOf, handleOf, insideWrite, insideWriteOnly, type Store, statement } from './_store';
import { type JsonObject, observations } from './schema';
import { touchSession } from './session-heartbeats';
import { touchTask } from './tasks';
import { refColumnsOf } from './where/observations';

export type Observation = typeof observations.$inferSelect;

export interface NewObservation {
  readonly sessionId: string;
  readonly taskId?: number | null;
  readonly kind: string;
  readonly content: string;
  readonly metadata?: JsonObject | null;
  readonly replyTo?: number | null;
  readonly ts: number;
  readonly tokenCount: number;
}

const INSERT_SQL = `INSERT INTO observations (session_id, task_id, kind, content, metadata, reply_to, ts, token_count)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

export { FTS_BATCH };

/**
 * Appends one observation, in the caller's transaction (or its own). Its index row is
 * written with the next batch (at most FTS_BATCH rows later, or by the next search).
 */
export async function insertObservation(store: Store, o: NewObservation): Promise<number> {
  if (insideWrite(store)) return insertAndIndex(store, o);
  return store.write(() => insertAndIndex(store, o));
}

/** How long a search waits for another process's write lock to index the pending rows. */
export const INDEX_LOCK_WAIT_MS = 2_000;

/**
 * Indexes for search every observation not indexed yet; returns how many. Inside a
 * write of the store it indexes in that write; elsewhere in a write of its own, only
 * when rows are pending, waiting at most INDEX_LOCK_WAIT_MS for the lock. A store that
 * refuses writes (read-only, too new), a caller inside a read transaction, or a lock
 * held past that wait index nothing: the search then sees the rows indexed so far (all
 * but the newest pending ones, as a rule fewer than FTS_BATCH).
 */
export async function indexPendingObservations(store: Store): Promise<number> {
  if (!store.writable) return 0;
  const { sqlite } = handleOf(store);
  if (insideWriteOnly(store)) return indexPending(sqlite);
  if (insideWrite(store)) return 0;
  const { newest, through } = indexState(sqlite);
  if (newest <= through) return 0;
  try {
    return await store.write(() => indexPending(sqlite), { busyTimeoutMs: INDEX_LOCK_WAIT_MS });
  } catch (error) {
    if (isStoreBusy(error)) return 0;
    throw error;
  }
}

/** What an appended observation is a sign of: its session is alive, its task moved (both at its `ts`). */
export interface ObservationTouches {
  readonly session: boolean;
  readonly task: boolean;
}

/**
 * Appends one observation and moves its session's heartbeat and its task's `updated_at`
 * to its `ts` where `touches` says so, in the caller's transaction: PostgreSQL does all
 * three in one statement (one round trip), SQLite in three.
 */
export async function insertObservationTouching(
  store: Store,
  o: NewObservation,
  touches: ObservationTouches,
): Promise<number> {
  const id = await insertObservation(store, o);
  if (touches.session) touchSession(store, o.sessionId, o.ts);
  if (touches.task && o.taskId != null) touchTask(store, o.taskId, o.ts);
  return id;
}

function insertAndIndex(store: Store, o: NewObservation): number {
  const id = writeRow(statement(store, INSERT_SQL), o);
  indexIfDue(handleOf(store).sqlite, id);
  return id;
}

function writeRow(insert: Database.Statement, o: NewObservation): number {
  const result = insert.run(
    o.sessionId,
    o.taskId ?? null,
    o.kind,
    o.content,
    o.metadata ? JSON.stringify(o.metadata) : null,
    o.replyTo ?? null,
    o.ts,
    o.tokenCount,
  );
  return Number(result.lastInsertRowid);
}

/** Appends many observations in one write transaction, indexed in it; returns their ids in order. */
export function insertObservations(store: Store, list: readonly NewObservation[]): Promise<number[]> {
  return store.write(() => {
    const insert = statement(store, INSERT_SQL);
    const ids = list.map((o) => writeRow(insert, o));
    indexPending(handleOf(store).sqlite);
    return ids;
  });
}

export function getObservation(store: Store, id: number): Observation | undefined {
  return dbOf(store).select().from(observations).where(eq(observations.id, id)).get();
}

/** The observations with these ids, in the order the ids were given; unknown ids are skipped. */
export function getObservations(store: Store, ids: readonly number[]): Observation[] {
  if (ids.length === 0) return [];
  const rows = dbOf(store)
    .select()
    .from(observations)
    .where(inArray(observations.id, [...new Set(ids)]))
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A compact row: what the index tools return, never the body. */
export interface ObservationRef {
  readonly id: number;
  readonly sessionId: string;
  readonly taskId: number | null;
  readonly kind: string;
  readonly ts: number;
  readonly replyTo: number | null;
}

const refColumns = refColumnsOf(observations);

/**
 * A session's observations in chronological order: the newest `limit`, or when
 * `aroundId` is given, a window of `limit` centred on it.
 */
export function sessionTimeline(store: Store, sessionId: string, limit: number, aroundId?: number): ObservationRef[] {
  if (aroundId === undefined) {
    return latestRefs(store, sessionId, limit);
  }
  // Up to `limit` rows each side, then a centred cut: a side that runs short (the start
  // or the end of the session) leaves its share to the other, so the window stays full.
  const before = Math.ceil(limit / 2);
  const older = statement(
    store,
    `SELECT id, session_id AS sessionId, task_id AS taskId, kind, ts, reply_to AS replyTo FROM observations
     WHERE session_id = ? AND id <= ? ORDER BY id DESC LIMIT ?`,
  ).all(sessionId, aroundId, limit) as ObservationRef[];
  const newer = statement(
    store,
    `SELECT id, session_id AS sessionId, task_id AS taskId, kind, ts, reply_to AS replyTo FROM observations
     WHERE session_id = ? AND id > ? ORDER BY id ASC LIMIT ?`,
  ).all(sessionId, aroundId, limit) as ObservationRef[];
  const newerCount = Math.min(newer.length, limit - Math.min(older.length, before));
  const olderCount = Math.min(older.length, limit - newerCount);
  return [...older.slice(0, olderCount).reverse(), ...newer.slice(0, newerCount)];
}

function latestRefs(store: Store, sessionId: string, limit: number): ObservationRef[] {
  return dbOf(store)
    .select(refColumns)
    .from(observations)
    .where(eq(observations.sessionId, sessionId))
    .orderBy(desc(observations.id))
    .limit(limit)
    .all()
    .reverse();
}

/** A task thread's observations, newest first. */
export function taskTimeline(store: Store, taskId: number, limit: number): ObservationRef[] {
  return dbOf(store)
    .select(refColumns)
    .from(observations)
    .where(eq(observations.taskId, taskId))
    .orderBy(desc(observations.id))
    .limit(limit)
    .all();
}

/** A task thread's observations after `sinceTs`, oldest first, without `excludeSessionId`'s own. */
export function taskUpdatesSince(
  store: Store,
  taskId: number,
  sinceTs: number,
  limit: number,
  excludeSessionId?: string,
): ObservationRef[] {
  return statement(
    store,
    `SELECT id, session_id AS sessionId, task_id AS taskId, kind, ts, reply_to AS replyTo FROM observations
     WHERE task_id = ? AND ts > ? AND session_id IS NOT ? ORDER BY ts ASC, id ASC LIMIT ?`,
  ).all(taskId, sinceTs, excludeSessionId ?? null, limit) as ObservationRef[];
}

/** A keyword hit: the compact row, its BM25 rank (lower is better) and its body for snippeting. */
export interface KeywordHit extends ObservationRef {
  readonly rank: number;
  readonly content: string;
}

export interface KeywordFilter {
  readonly kind?: string;
  readonly taskId?: number;
  readonly sessionId?: string;
}

/**
 * How many of the newest matches BM25 ranks. FTS5 scores every matching row, so a
 * broad query over a large store would cost tens of milliseconds; a query matching
 * more rows than this is broad, and among its matches the recent ones matter most.
 */
export const RANK_POOL = 250;

/**
 * BM25-ranked full-text matches for an FTS5 MATCH expression (build it with
 * `ftsMatchExpression`), among the newest `RANK_POOL` matches (or `limit`, if larger).
 * Only the top `limit` rows are joined back to their observations.
 */
export function keywordSearch(store: Store, match: string, limit: number, filter: KeywordFilter = {}): KeywordHit[] {
  const columns = `o.id, o.session_id AS sessionId, o.task_id AS taskId, o.kind, o.ts, o.reply_to AS replyTo, o.content`;
  const where: string[] = [];
  const params: unknown[] = [match];
  if (filter.kind !== undefined) {
    where.push('o.kind = ?');
    params.push(filter.kind);
  }
  if (filter.taskId !== undefined) {
    where.push('o.task_id = ?');
    params.push(filter.taskId);
  }
  if (filter.sessionId !== undefined) {
    where.push('o.session_id = ?');
    params.push(filter.sessionId);
  }
  params.push(Math.max(RANK_POOL, limit), limit);
  // The pool is read newest-first straight off the index (no sort); bm25() runs only on it.
  const pool =
    where.length === 0
      ? `SELECT rowid AS id, bm25(observations_fts) AS rank FROM observations_fts
         WHERE observations_fts MATCH ? ORDER BY rowid DESC LIMIT ?`
      : `SELECT f.rowid AS id, bm25(observations_fts) AS rank FROM observations_fts f JOIN observations o ON o.id = f.rowid
         WHERE observations_fts MATCH ? AND ${where.join(' AND ')} ORDER BY f.rowid DESC LIMIT ?`;
  // Cut the pool to the top `limit` before joining, so only those rows' bodies are read.
  const top = `SELECT id, rank FROM (${pool}) ORDER BY rank, id DESC LIMIT ?`;
  const sql = `SELECT ${columns}, h.rank FROM (${top}) h JOIN observations o ON o.id = h.id ORDER BY h.rank, o.id DESC`;
  return statement(store, sql).all(...params) as KeywordHit[];
}

/** A live-window match: the compact row and its body with FTS5's matched tokens marked. */
export interface MarkedMatch extends ObservationRef {
  /** The body, each token the MATCH expression hit wrapped in MATCH_OPEN ... MATCH_CLOSE. */
  readonly marked: string;
}

/** Markers around matched tokens in `MarkedMatch.marked` (private-use characters). */
export const MATCH_OPEN = '\uE000';
export const MATCH_CLOSE = '\uE001';

/**
 * The newest `limit` observations with id above `afterId` matching `match`, newest
 * first, each with its matched tokens marked (FTS5 highlight(), the index's own
 * tokenizer). No bm25(): its per-term statistics read each term's whole doclist, so
 * its cost grows with history. Use an OR of terms: the walk ends at `limit` matches or
 * the window's bound (terms rare in the window but common in history still cost a
 * little more: 0.09 -> 0.12 ms from 5,000 to 40,000 observations, measured). An AND of
 * terms is not bounded this way: FTS5 checks the bound only on rows it yields, and the
 * next row matching every term may lie deep in history.
 */
export function liveMatches(store: Store, match: string, afterId: number, limit: number): MarkedMatch[] {
  return statement(
    store,
    `SELECT o.id, o.session_id AS sessionId, o.task_id AS taskId, o.kind, o.ts, o.reply_to AS replyTo, m.marked
     FROM (SELECT rowid AS id, highlight(observations_fts, 0, ?, ?) AS marked FROM observations_fts
           WHERE observations_fts MATCH ? AND rowid > ? ORDER BY rowid DESC LIMIT ?) m
     JOIN observations o ON o.id = m.id ORDER BY o.id DESC`,
  ).all(MATCH_OPEN, MATCH_CLOSE, match, afterId, limit) as MarkedMatch[];
}

/** Terms of a free-text query, each quoted, so no query text is read as FTS5 syntax. */
export function ftsMatchExpression(query: string, mode: 'all' | 'any'): string | null {
  const terms = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])].slice(0, 32);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t}"`).join(mode === 'all' ? ' ' : ' OR ');
}

export function countObservations(store: Store): number {
  return dbOf(store).select({ n: count() }).from(observations).get()?.n ?? 0;
}

/** Ids of observations replying to `id`, oldest first. */
export function repliesTo(store: Store, id: number): number[] {
  return dbOf(store)
    .select({ id: observations.id })
    .from(observations)
    .where(eq(observations.replyTo, id))
    .orderBy(asc(observations.id))
    .all()
    .map((r) => r.id);
}

/**
 * Files a session edited on a task since `sinceTs`, with the time of the latest edit
 * of each: read from `edit` observations (metadata.file_path, repo-relative).
 */
export function editedFilesSince(
  store: Store,
  taskId: number,
  sessionId: string,
  sinceTs: number,
): Array<{ filePath: string; lastTs: number }> {
  return statement(
    store,
    `SELECT json_extract(metadata, '$.file_path') AS filePath, MAX(ts) AS lastTs FROM observations
     WHERE task_id = ? AND session_id = ? AND kind = 'edit' AND ts >= ? AND json_extract(metadata, '$.file_path') IS NOT NULL
     GROUP BY filePath ORDER BY lastTs DESC`,
  ).all(taskId, sessionId, sinceTs) as Array<{ filePath: string; lastTs: number }>;
}

/** An observation's exact token count, counted after it was written (it was stored as an estimate). */
export interface TokenCountRefinement {
  readonly id: number;
  readonly content: string;
  readonly tokenCount: number;
}

const REFINE_SQL = 'UPDATE observations SET token_count = ? WHERE id = ? AND content = ?';

/**
 * Sets counted token counts, in the caller's transaction (or its own). The content must
 * still match: an id whose write was rolled back (and reused since) is left alone.
 */
export async function refineTokenCounts(store: Store, rows: readonly TokenCountRefinement[]): Promise<void> {
  if (rows.length === 0) return;
  const update = statement(store, REFINE_SQL);
  const run = () => {
    for (const r of rows) update.run(r.tokenCount, r.id, r.content);
  };
  if (insideWrite(store)) run();
  else await store.write(run);
}
