/**
 * @module pg/queries/examples
 * Indexed example projects (`src/examples.ts`) on PostgreSQL. `examples_fts` is a plain
 * table here with a generated `content_tsv`; its rows are written and dropped as on
 * SQLite. Pattern search has the full-text limits of observations-search.ts (stemming,
 * stop words, rank `-ts_rank_cd` instead of bm25). `summary` is JSON text on both sides.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { type ExampleRow, type ExampleWrite, FORAGED_PATTERN_KIND, type IndexedPattern } from '../../examples';
import type { KeywordHit } from '../../observations';
import { exampleNamed } from '../../where/examples';
import { pgTables } from '../schema';
import { pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';
import { REF_NUMBERS } from './observations-timeline';

const { examples } = pgTables;

const parsed = (r: Record<string, unknown>): ExampleRow =>
  ({ ...r, summary: typeof r.summary === 'string' ? JSON.parse(r.summary) : r.summary }) as ExampleRow;
const toRow = (row: ExampleWrite) => ({ ...row, summary: JSON.stringify(row.summary) });

/** The examples of a repository, by name. */
export async function listExamples(store: PgStore, repoRoot: string): Promise<ExampleRow[]> {
  const rows = await pgDb(store)
    .select()
    .from(examples)
    .where(eq(examples.repoRoot, repoRoot))
    .orderBy(asc(examples.exampleName));
  return rows.map(parsed);
}

export async function getExample(
  store: PgStore,
  repoRoot: string,
  exampleName: string,
): Promise<ExampleRow | undefined> {
  const rows = await pgDb(store)
    .select()
    .from(examples)
    .where(exampleNamed(examples, repoRoot, exampleName))
    .limit(1);
  return rows[0] ? parsed(rows[0]) : undefined;
}

/** Inserts or replaces the index entry of (repo_root, example_name). Call inside `store.write`. */
export async function upsertExample(store: PgStore, row: ExampleWrite): Promise<void> {
  const { repoRoot, exampleName, ...rest } = toRow(row);
  await pgDb(store)
    .insert(examples)
    .values(toRow(row))
    .onConflictDoUpdate({ target: [examples.repoRoot, examples.exampleName], set: rest });
}

/** Sets last_scanned_at of entries that were scanned and found unchanged. */
export async function markExamplesScanned(store: PgStore, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await pgDb(store)
    .update(examples)
    .set({ lastScannedAt: now })
    .where(inArray(examples.id, [...ids]));
}

/** Drops index entries and their search rows; their observations stay. */
export async function deleteExamples(store: PgStore, rows: readonly ExampleRow[]): Promise<void> {
  if (rows.length === 0) return;
  for (const row of rows) {
    if (row.firstPatternId !== null && row.lastPatternId !== null) {
      await reindexExamplePatterns(store, row.exampleName, { lo: row.firstPatternId, hi: row.lastPatternId }, []);
    }
  }
  await pgDb(store)
    .delete(examples)
    .where(
      inArray(
        examples.id,
        rows.map((r) => r.id),
      ),
    );
}

/** Replaces the search rows of an example (drops its previous range, indexes `patterns`). */
export async function reindexExamplePatterns(
  store: PgStore,
  exampleName: string,
  previous: { readonly lo: number; readonly hi: number } | null,
  patterns: readonly IndexedPattern[],
): Promise<void> {
  const client = pgClient(store);
  if (previous)
    await client.query('DELETE FROM examples_fts WHERE rowid BETWEEN $1 AND $2', [previous.lo, previous.hi]);
  for (const p of patterns) {
    await client.query('INSERT INTO examples_fts (rowid, content, example_name) VALUES ($1, $2, $3)', [
      p.observationId,
      p.content,
      exampleName,
    ]);
  }
}

/** Ranked current `foraged-pattern` observations (of one example, or all); best first, ties newest first. */
export async function searchExamplePatterns(
  store: PgStore,
  match: string,
  limit: number,
  exampleName?: string,
): Promise<KeywordHit[]> {
  const query = `websearch_to_tsquery('english', $1)`;
  const sql = `SELECT o.id, o.session_id AS "sessionId", o.task_id AS "taskId", o.kind, o.ts, o.reply_to AS "replyTo", o.content, h.rank
    FROM (SELECT f.rowid AS id, -ts_rank_cd(f.content_tsv, ${query}) AS rank FROM examples_fts f
          WHERE f.content_tsv @@ ${query} AND ($4::text IS NULL OR f.example_name = $4) ORDER BY rank, f.rowid DESC LIMIT $2) h
    JOIN observations o ON o.id = h.id AND o.kind = $3 ORDER BY h.rank, o.id DESC`;
  const { rows } = await pgClient(store).query(sql, [match, limit, FORAGED_PATTERN_KIND, exampleName ?? null]);
  return rows.map((r) => numbered<KeywordHit>(r, [...REF_NUMBERS, 'rank']));
}
