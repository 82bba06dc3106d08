/**
 * @module pg/_fts
 * Full-text search on PostgreSQL. SQLite keeps two FTS5 tables (drizzle/0001_fts.sql,
 * drizzle/0010_examples.sql): `observations_fts`, an external-content index over
 * `observations.content`, and `examples_fts`, a standalone table of pattern text keyed
 * by rowid. On PostgreSQL the first is a stored generated `tsvector` column on
 * `observations` with a GIN index; the second a plain table with the same columns and
 * the same generated column. The `english` configuration stems like FTS5's porter
 * tokenizer.
 */
import { sql } from 'drizzle-orm';
import { bigint, customType, index, pgTable, text } from 'drizzle-orm/pg-core';

/** The text search configuration of every tsvector column. */
export const TS_CONFIG = 'english';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** A stored `tsvector` generated from `source` (a text column's SQL name). */
export function tsvectorOf(name: string, source: string) {
  return tsvector(name).generatedAlwaysAs(sql.raw(`to_tsvector('${TS_CONFIG}', coalesce("${source}", ''))`));
}

/** The searchable column added to `observations`, and its GIN index's name. */
export const OBSERVATIONS_SEARCH = { column: 'content_tsv', index: 'observations_content_tsv_idx' } as const;

/** The PostgreSQL form of SQLite's `examples_fts` (rowid = a foraged-pattern observation). */
export const examplesFts = pgTable(
  'examples_fts',
  {
    rowid: bigint('rowid', { mode: 'number' }).primaryKey(),
    content: text('content').notNull(),
    exampleName: text('example_name'),
    contentTsv: tsvectorOf('content_tsv', 'content'),
  },
  (t) => [index('examples_fts_content_tsv_idx').using('gin', t.contentTsv)],
);
