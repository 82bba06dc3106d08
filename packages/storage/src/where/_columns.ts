/**
 * @module where/columns
 * The column type the dialect-neutral builders of `src/where/` take: any drizzle column
 * holding values of type `T`, so a sqlite-core table (`src/schema`) and its pg-core
 * mirror (`pgTables`, same column keys) both fit without a cast.
 */
import type { AnyColumn } from 'drizzle-orm';

/** A column of either dialect whose values are `T`. */
export type Col<T> = AnyColumn<{ data: T }>;

/**
 * The named columns of a table, in the order given: a selection each dialect builds
 * from its own table, keeping that table's column types.
 */
export function pickColumns<T, K extends keyof T>(table: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, table[k]])) as Pick<T, K>;
}
