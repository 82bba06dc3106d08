/**
 * @module examples
 * Queries for indexed example projects (food sources): one row per (repo_root,
 * example_name) with its manifest kind, summary, content hash and the id range of its
 * current `foraged-pattern` observations. Pattern search is BM25 over the FTS index,
 * confined to those ranges: each range is one rowid-bounded FTS5 lookup, so the cost
 * follows the current patterns, never the whole history.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { dbOf, type Store, statement } from './_store';
import type { KeywordHit } from './observations';
import { examples, type JsonObject } from './schema';

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
    .where(and(eq(examples.repoRoot, repoRoot), eq(examples.exampleName, exampleName)))
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

/** Drops index entries (examples whose folder is gone). Their observations stay as history. */
export function deleteExamples(store: Store, ids: readonly number[]): void {
  if (ids.length === 0) return;
  dbOf(store)
    .delete(examples)
    .where(inArray(examples.id, [...ids]))
    .run();
}

/** Most examples whose pattern ranges one pattern search looks into. */
export const MAX_SEARCHED_EXAMPLES = 500;

/**
 * BM25-ranked `foraged-pattern` observations among the current patterns of every
 * indexed example (or of the examples with this name), for an FTS5 MATCH expression
 * built with `ftsMatchExpression`. Best first; ties newest first.
 */
export function searchExamplePatterns(store: Store, match: string, limit: number, exampleName?: string): KeywordHit[] {
  const ranges = statement(
    store,
    exampleName === undefined
      ? `SELECT first_pattern_id AS lo, last_pattern_id AS hi FROM examples
         WHERE first_pattern_id IS NOT NULL ORDER BY id LIMIT ?`
      : `SELECT first_pattern_id AS lo, last_pattern_id AS hi FROM examples
         WHERE example_name = ? AND first_pattern_id IS NOT NULL ORDER BY id LIMIT ?`,
  ).all(...(exampleName === undefined ? [] : [exampleName]), MAX_SEARCHED_EXAMPLES) as Array<{
    lo: number;
    hi: number;
  }>;
  const inRange = statement(
    store,
    `SELECT rowid AS id, bm25(observations_fts) AS rank FROM observations_fts
     WHERE observations_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank LIMIT ?`,
  );
  const ranked: Array<{ id: number; rank: number }> = [];
  for (const { lo, hi } of ranges) ranked.push(...(inRange.all(match, lo, hi, limit) as typeof ranked));
  ranked.sort((a, b) => a.rank - b.rank || b.id - a.id);
  const top = ranked.slice(0, limit);
  if (top.length === 0) return [];
  const rows = statement(
    store,
    `SELECT id, session_id AS sessionId, task_id AS taskId, kind, ts, reply_to AS replyTo, content
     FROM observations WHERE id IN (SELECT value FROM json_each(?)) AND kind = ?`,
  ).all(JSON.stringify(top.map((t) => t.id)), FORAGED_PATTERN_KIND) as Array<Omit<KeywordHit, 'rank'>>;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return top.flatMap(({ id, rank }) => {
    const row = byId.get(id);
    return row ? [{ ...row, rank }] : [];
  });
}
