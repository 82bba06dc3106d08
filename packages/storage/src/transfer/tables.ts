/**
 * @module transfer/tables
 * The tables an export holds, read from the drizzle schema with `getTableConfig`, so a
 * table added to `schema/` is exported without touching this folder. Each table lists
 * its columns with a portable type (integer, real, text, blob, boolean, json: what a
 * PostgreSQL store needs to map them) and its primary key. Tables come in foreign-key
 * dependency order (a table after every table it references), ties by name, so the
 * order is stable and an import never inserts a row before the row it points at.
 */
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from '../schema';

export type ColumnType = 'integer' | 'real' | 'text' | 'blob' | 'boolean' | 'json';

export interface TransferColumn {
  readonly name: string;
  readonly type: ColumnType;
}

export interface TransferTable {
  readonly name: string;
  readonly columns: readonly TransferColumn[];
  /** Primary-key columns: the row order of an export. */
  readonly key: readonly string[];
  /** Tables this one references by foreign key (itself excluded). */
  readonly references: readonly string[];
}

function columnType(column: { getSQLType(): string; columnType: string }): ColumnType {
  if (column.columnType === 'SQLiteBoolean') return 'boolean';
  if (column.columnType === 'SQLiteTextJson' || column.columnType === 'SQLiteBlobJson') return 'json';
  const sql = column.getSQLType().toLowerCase();
  if (sql === 'integer' || sql === 'real' || sql === 'text' || sql === 'blob') return sql;
  throw new Error(`transfer: column type ${sql} has no portable name`);
}

function describe(table: SQLiteTable): TransferTable {
  const config = getTableConfig(table);
  const composite = config.primaryKeys[0]?.columns.map((c) => c.name);
  const key = composite ?? config.columns.filter((c) => c.primary).map((c) => c.name);
  const references = config.foreignKeys
    .map((fk) => getTableConfig(fk.reference().foreignTable).name)
    .filter((name) => name !== config.name);
  return {
    name: config.name,
    columns: config.columns.map((c) => ({ name: c.name, type: columnType(c) })),
    key,
    references: [...new Set(references)].sort(),
  };
}

/** Orders tables so each comes after those it references; throws on a cycle (a schema bug here). */
export function dependencyOrder(tables: readonly TransferTable[]): TransferTable[] {
  const pending = [...tables].sort((a, b) => (a.name < b.name ? -1 : 1));
  const placed = new Set<string>();
  const out: TransferTable[] = [];
  while (pending.length > 0) {
    const at = pending.findIndex((t) => t.references.every((r) => placed.has(r)));
    if (at < 0) throw new Error(`transfer: foreign-key cycle among ${pending.map((t) => t.name).join(', ')}`);
    const [next] = pending.splice(at, 1) as [TransferTable];
    placed.add(next.name);
    out.push(next);
  }
  return out;
}

let cached: readonly TransferTable[] | undefined;

/** Every table of the schema, in dependency order. */
export function transferTables(): readonly TransferTable[] {
  cached ??= dependencyOrder(
    (Object.values(schema) as unknown[])
      .filter((value): value is SQLiteTable => value instanceof SQLiteTable)
      .map(describe),
  );
  return cached;
}
