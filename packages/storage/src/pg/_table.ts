/**
 * @module pg/_table
 * One sqlite-core table of the schema as a pg-core table with the same name, columns
 * (same JS keys) and constraints: composite primary keys, unique constraints, unique
 * and partial indexes (their WHERE clauses as written), foreign keys with their
 * ON DELETE / ON UPDATE actions, and checks. Foreign keys name their target by table
 * name through `resolve`, so tables may be mapped in any order.
 */
import { type Column, getTableColumns, getTableName, type SQL, type Table } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  foreignKey,
  index,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
  pgTable,
  primaryKey,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { pgColumnOf } from './_columns';

// biome-ignore lint/suspicious/noExplicitAny: tables are built at run time from the SQLite ones
export type PgMirror = PgTableWithColumns<any>;
type Extra = (t: Record<string, AnyPgColumn>) => unknown[];
/** pgTable typed for columns known only at run time. */
const looseTable = pgTable as unknown as (
  name: string,
  columns: Record<string, PgColumnBuilderBase>,
  extra: Extra,
) => PgMirror;

/** Maps `table`; `resolve` returns the mapped table of a name; `extra` adds dialect-only parts. */
export function mirrorTable(
  table: SQLiteTable,
  resolve: (name: string) => PgMirror,
  extra?: { columns: Record<string, PgColumnBuilderBase>; config: Extra },
): PgMirror {
  const config = getTableConfig(table);
  const columns: Record<string, PgColumnBuilderBase> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) columns[key] = pgColumnOf(column);
  Object.assign(columns, extra?.columns);
  return looseTable(config.name, columns, (t) => {
    const byName = new Map(Object.values(t).map((c) => [c.name, c]));
    const cols = (list: readonly Column[], source: Map<string, AnyPgColumn> = byName) =>
      list.map((c) => {
        const found = source.get(c.name);
        if (!found) throw new Error(`${config.name}: no column ${c.name}`);
        return found;
      }) as [AnyPgColumn, ...AnyPgColumn[]];
    const columnsOf = (target: PgMirror) =>
      new Map(Object.values(getTableColumns(target) as Record<string, AnyPgColumn>).map((c) => [c.name, c]));
    return [
      ...config.primaryKeys.map((pk) => primaryKey({ columns: cols(pk.columns) })),
      ...config.uniqueConstraints.map((u) => unique(u.name).on(...cols(u.columns))),
      ...config.checks.map((c) => check(c.name, c.value)),
      ...config.indexes.map((i) => {
        const built = (i.config.unique ? uniqueIndex : index)(i.config.name).on(...cols(i.config.columns as Column[]));
        return i.config.where ? built.where(i.config.where as SQL) : built;
      }),
      ...config.foreignKeys.map((fk) => {
        const ref = fk.reference();
        const target = resolve(getTableName(ref.foreignTable as Table));
        const built = foreignKey({
          columns: cols(ref.columns),
          foreignColumns: cols(ref.foreignColumns, columnsOf(target)),
        });
        if (fk.onDelete) built.onDelete(fk.onDelete);
        if (fk.onUpdate) built.onUpdate(fk.onUpdate);
        return built;
      }),
      ...(extra?.config(t) ?? []),
    ];
  });
}
