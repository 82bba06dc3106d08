/**
 * @module schema/memory
 * Memory beyond keywords: observation and task embedding vectors, and the indexed example projects.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { observations } from './history';
import { type JsonObject, tasks } from './threads';

/**
 * Embedding vectors of observations: one per observation, from the embedder named by
 * `embedder_id` (a row whose vector came from another embedder counts as missing, and
 * is re-embedded and replaced). Keyed by the observation id itself, so reading a
 * candidate's vector is one rowid lookup. Never written on the insert path: a backfill
 * embeds the rows that have no vector for the current embedder yet, in bounded
 * batches, so rows without one simply score by keywords. `vector` is a Float32 array of
 * `dims` values (platform byte order), L2-normalized.
 */
export const observationVectors = sqliteTable('observation_vectors', {
  observationId: integer('observation_id')
    .primaryKey()
    .references(() => observations.id),
  embedderId: text('embedder_id').notNull(),
  dims: integer('dims').notNull(),
  vector: blob('vector', { mode: 'buffer' }).notNull(),
});

/**
 * Per task and embedder, the sum of its observations' vectors and how many were added:
 * the task's direction (the normalized sum) is read without touching every row. The
 * backfill adds to it in the same transaction as the vectors it writes.
 */
export const taskVectors = sqliteTable(
  'task_vectors',
  {
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    embedderId: text('embedder_id').notNull(),
    dims: integer('dims').notNull(),
    sum: blob('sum', { mode: 'buffer' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.embedderId] })],
);

/**
 * Example projects ("food sources") under `<repo_root>/examples/<example_name>/`, as the
 * forager last indexed them: one row per (repo_root, example_name). `summary` is the
 * structured index (manifest dependencies, scripts, entrypoints, notable files, notes)
 * that examples_integrate_plan reads. The example's current `foraged-pattern`
 * observations are the ids first_pattern_id..last_pattern_id (written contiguously in
 * one transaction; a re-index of a changed example moves the range, superseding the old
 * ones), so observation_count and examples_query follow the current index only.
 * `content_hash` is the hash of what an index writes: an unchanged example writes nothing.
 * Searched through the FTS5 table `examples_fts` (current patterns only, rowid =
 * observation id), which drizzle cannot declare: it is created by hand-written SQL at
 * the end of migration 0010_examples.sql, as observations_fts is in 0001_fts.sql.
 */
export const examples = sqliteTable(
  'examples',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    exampleName: text('example_name').notNull(),
    manifestKind: text('manifest_kind'),
    observationCount: integer('observation_count').notNull().default(0),
    contentHash: text('content_hash').notNull(),
    firstPatternId: integer('first_pattern_id'),
    lastPatternId: integer('last_pattern_id'),
    summary: text('summary', { mode: 'json' }).$type<JsonObject>().notNull(),
    lastScannedAt: integer('last_scanned_at').notNull(),
  },
  (t) => [
    uniqueIndex('examples_repo_name_uq').on(t.repoRoot, t.exampleName),
    index('examples_name_idx').on(t.exampleName),
  ],
);
