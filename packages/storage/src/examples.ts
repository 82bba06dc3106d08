/**
 * @module examples
 * Queries for indexed example projects (food sources): one row per (repo_root,
 * example_name) with its manifest kind, summary, content hash and the id range of its
 * current `foraged-pattern` observations. Pattern search is BM25 over `examples_fts`,
 * which holds the current patterns only (replaced with their example's row), so its
 * cost follows the current patterns, never the whole history.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { dbOf, type Store, statement } from './_store';
import type { KeywordHit } from './observations';
import { examples, type JsonObject } from './schema';
import { exampleNamed } from './where/examples';

export type ExampleRow = typeof examples.$inferSelect;

/** The kind of the observations the forager writes. */
export const FORAGED_PATTERN_KIND = 'foraged-pattern';

export interface ExampleWrite {
  readonly repoRoot: string;
  readonly exampleName: string;
  readonly manifestKind: string | null;
  readonly contentHash: string;
  readonly observationCount: number;
  readonly firstPatternId: number | null;
  readonly lastPatternId: number | null;
  readonly summary: JsonObject;
  readonly lastScannedAt: number;
}

/** The examples of a repository, by name. */
export function listExamples(store: Store, repoRoot: string): ExampleRow[] {
  return dbOf(store)
    .select()
    .from(examples)
    .where(eq(examples.repoRoot, repoRoot))
    .orderBy(asc(examples.exampleName))
    .all();
}

export function getExample(store: Store, repoRoot: string, exampleName: string): ExampleRow | undefined {
  return dbOf(store)
    .select()
    .from(examples)
    .where(exampleNamed(examples, repoRoot, exampleName))
    .get();
}

/** Inserts or replaces the index entry of (repo_root, example_name). Call inside `store.write`. */
export function upsertExample(store: Store, row: ExampleWrite): void {
  const { repoRoot, exampleName, ...rest } = row;
  dbOf(store)
    .insert(examples)
    .values(row)
    .onConflictDoUpdate({ target: [examples.repoRoot, examples.exampleName], set: rest })
    .run();
}

/** Sets last_scanned_at of entries that were scanned and found unchanged. */
export function markExamplesScanned(store: Store, ids: readonly number[], now: number): void {
  if (ids.length === 0) return;
  dbOf(store)
    .update(examples)
    .set({ lastScannedAt: now })
    .where(inArray(examples.id, [...ids]))
    .run();
}

/** Drops index entries (examples whose folder is gone) and their search rows. Their observations stay as history. */
export function deleteExamples(store: Store, rows: readonly ExampleRow[]): void {
  if (rows.length === 0) return;
  for (const row of rows) {
    if (row.firstPatternId !== null && row.lastPatternId !== null) {
      reindexExamplePatterns(store, row.exampleName, { lo: row.firstPatternId, hi: row.lastPatternId }, []);
    }
  }
  const ids = rows.map((r) => r.id);
  dbOf(store)
    .delete(examples)
    .where(inArray(examples.id, [...ids]))
    .run();
}

/** A current pattern of an example, as its search index holds it. */
export interface IndexedPattern {
  readonly observationId: number;
  readonly content: string;
}

/**
 * Replaces the search rows of an example: drops the rows of its previous pattern range
 * (when it had one) and indexes `patterns`. Call inside `store.write`.
 */
export function reindexExamplePatterns(
  store: Store,
  exampleName: string,
  previous: { readonly lo: number; readonly hi: number } | null,
  patterns: readonly IndexedPattern[],
): void {
  if (previous) statement(store, 'DELETE FROM examples_fts WHERE rowid BETWEEN ? AND ?').run(previous.lo, previous.hi);
  const insert = statement(store, 'INSERT INTO examples_fts (rowid, content, example_name) VALUES (?, ?, ?)');
  for (const p of patterns) insert.run(p.observationId, p.content, exampleName);
}

/**
 * BM25-ranked current `foraged-pattern` observations of every indexed example (or of
 * the examples with this name), for an FTS5 MATCH expression built with
 * `ftsMatchExpression`. Ranked inside the small examples_fts index (only current
 * patterns), then joined to their observations. Best first; ties newest first.
 */
export function searchExamplePatterns(store: Store, match: string, limit: number, exampleName?: string): KeywordHit[] {
  const filter = exampleName === undefined ? '' : 'AND f.example_name = ?';
  const sql = `SELECT o.id, o.session_id AS sessionId, o.task_id AS taskId, o.kind, o.ts, o.reply_to AS replyTo, o.content, h.rank
    FROM (SELECT f.rowid AS id, bm25(examples_fts) AS rank FROM examples_fts f
          WHERE examples_fts MATCH ? ${filter} ORDER BY rank, f.rowid DESC LIMIT ?) h
    JOIN observations o ON o.id = h.id AND o.kind = ? ORDER BY h.rank, o.id DESC`;
  const params = exampleName === undefined ? [match, limit] : [match, exampleName, limit];
  return statement(store, sql).all(...params, FORAGED_PATTERN_KIND) as KeywordHit[];
}
