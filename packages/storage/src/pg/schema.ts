/**
 * @module pg/schema
 * colony's store on PostgreSQL, derived from the one schema definition: every
 * sqlite-core table exported by `src/schema/` mapped to pg-core by `mirrorTable`
 * (same table, column and index names), plus PostgreSQL's full-text parts (`_fts.ts`).
 * drizzle-kit reads this module through `drizzle-pg.schema.cjs` to write `drizzle-pg/`.
 */
import { getTableName, is } from 'drizzle-orm';
import { type AnyPgColumn, index } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as sqliteSchema from '../schema/index';
import { examplesFts, OBSERVATIONS_SEARCH, tsvectorOf } from './_fts';
import { mirrorTable, type PgMirror } from './_table';

type SqliteTableKey = {
  [K in keyof typeof sqliteSchema]: (typeof sqliteSchema)[K] extends SQLiteTable ? K : never;
}[keyof typeof sqliteSchema];

/**
 * A mirrored table: built at run time, so its columns are loosely typed, but it names
 * the SQLite table's column keys, so it fits the dialect-neutral builders of `src/where/`.
 */
type MirrorOf<T> = T extends SQLiteTable
  ? PgMirror & { [C in keyof T['_']['columns']]: PgColumnOf<T['_']['columns'][C]['_']> }
  : never;
/** A mirrored column: the SQLite column's values (JSON mode as its text) and NOT NULL. */
type PgColumnOf<C extends { columnType: string; data: unknown; notNull: boolean }> = AnyPgColumn<{
  data: C['columnType'] extends 'SQLiteTextJson' ? string : C['data'];
  notNull: C['notNull'];
}>;

/** The PostgreSQL tables, keyed like the SQLite schema's exports. */
export type PgTables = { [K in SqliteTableKey]: MirrorOf<(typeof sqliteSchema)[K]> } & {
  examplesFts: typeof examplesFts;
};

const EXTRAS: Record<string, Parameters<typeof mirrorTable>[2]> = {
  observations: {
    columns: { contentTsv: tsvectorOf(OBSERVATIONS_SEARCH.column, 'content') },
    config: (t) => [index(OBSERVATIONS_SEARCH.index).using('gin', t.contentTsv as never)],
  },
};

function build(): PgTables {
  const sources = (Object.entries(sqliteSchema) as Array<[string, unknown]>).filter((e): e is [string, SQLiteTable] =>
    is(e[1], SQLiteTable),
  );
  const byName = new Map<string, PgMirror>();
  const out: Record<string, PgMirror> = {};
  const resolve = (name: string) => {
    const found = byName.get(name);
    if (!found) throw new Error(`no PostgreSQL table ${name}`);
    return found;
  };
  for (const [key, table] of sources) {
    const mirrored = mirrorTable(table, resolve, EXTRAS[key]);
    out[key] = mirrored;
    byName.set(getTableName(mirrored), mirrored);
  }
  return { ...out, examplesFts } as PgTables;
}

export const pgTables: PgTables = build();
