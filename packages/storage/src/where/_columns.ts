/**
 * @module where/columns
 * The column type the dialect-neutral builders of `src/where/` take: any drizzle column
 * holding values of type `T`, so a sqlite-core table (`src/schema`) and its pg-core
 * mirror (`pgTables`, same column keys) both fit without a cast.
 */
import { type AnyColumn, type Placeholder, type SQLWrapper, sql, type Table } from 'drizzle-orm';

/** A column of either dialect whose values are `T`. */
export type Col<T> = AnyColumn<{ data: T }>;

/**
 * The columns `K` of the schema table `T` (`typeof batons`), each as a column of either
 * dialect holding that column's values: what a builder takes instead of the table.
 */
export type ColsOf<T extends Table, K extends keyof T['_']['columns']> = {
  readonly [P in K]: Col<T['_']['columns'][P]['_']['data']>;
};

/**
 * A value compared in a condition: the value itself, or a placeholder, so a SQLite
 * prepared statement (`prepared(store, key, ...)`) builds the very condition its
 * PostgreSQL twin builds with values.
 */
export type Arg<T> = T | SQLWrapper;

/** `sql.placeholder(key)` for each key, under that key. */
export function placeholders<K extends string>(...keys: K[]): Record<K, Placeholder<K>> {
  return Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])) as Record<K, Placeholder<K>>;
}

/**
 * The named columns of a table, in the order given: a selection each dialect builds
 * from its own table, keeping that table's column types.
 */
export function pickColumns<T, K extends keyof T>(table: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, table[k]])) as Pick<T, K>;
}
