/**
 * Valid rows for any table of the schema, on PostgreSQL, built from the SQLite table
 * configs: every column gets a fresh value of its type, every foreign key a freshly
 * inserted parent row. Lets the constraint tests break one constraint at a time.
 */
import { getTableColumns, is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type pg from 'pg';
import * as schema from '../src/schema/index';

export type Row = Record<string, unknown>;

/** Every SQLite table of the schema by name (the PostgreSQL tables have the same names). */
export const SQLITE_TABLES = new Map(
  (Object.values(schema) as unknown[])
    .filter((t): t is SQLiteTable => is(t, SQLiteTable))
    .map((t) => [getTableConfig(t).name, t]),
);
let counter = 1_000;

function freshValue(columnType: string): unknown {
  const n = ++counter;
  switch (columnType) {
    case 'SQLiteBoolean':
      return false;
    case 'SQLiteText':
      return `v${n}`;
    case 'SQLiteTextJson':
      return '{}';
    case 'SQLiteReal':
      return n + 0.5;
    case 'SQLiteBlobBuffer':
      return Buffer.from([n % 256]);
    default:
      return n;
  }
}

export class RowFactory {
  constructor(
    private readonly client: pg.Client,
    private readonly tables: Map<string, SQLiteTable>,
  ) {}

  /** A valid row for `table` (not inserted); its parents are inserted. */
  async valid(table: string, overrides: Row = {}): Promise<Row> {
    const source = this.tables.get(table);
    if (!source) throw new Error(`unknown table ${table}`);
    const row: Row = {};
    for (const column of Object.values(getTableColumns(source))) row[column.name] = freshValue(column.columnType);
    for (const fk of getTableConfig(source).foreignKeys) {
      const ref = fk.reference();
      const parentName = getTableConfig(ref.foreignTable).name;
      const parent = await this.insert(parentName);
      ref.columns.forEach((c, i) => {
        row[c.name] = parent[ref.foreignColumns[i]?.name as string];
      });
    }
    return { ...row, ...overrides };
  }

  async insert(table: string, overrides: Row = {}): Promise<Row> {
    return this.write(table, await this.valid(table, overrides));
  }

  async write(table: string, row: Row): Promise<Row> {
    const names = Object.keys(row);
    const text = `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`;
    const { rows } = await this.client.query(text, Object.values(row));
    return rows[0] as Row;
  }
}

/** Runs `body` in a savepoint rolled back afterwards; resolves with the SQLSTATE it failed with, if any. */
export async function sqlStateOf(client: pg.Client, body: () => Promise<unknown>): Promise<string | undefined> {
  await client.query('SAVEPOINT probe');
  try {
    await body();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await client.query('ROLLBACK TO SAVEPOINT probe');
  }
}

const literal = (v: unknown): string =>
  v === null
    ? 'NULL'
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : `'${String(v).replaceAll("'", "''")}'`;

/** `row` as one INSERT statement with inline literals (for psql, another process). */
export function insertStatement(table: string, row: Row): string {
  return `INSERT INTO "${table}" (${Object.keys(row)
    .map((n) => `"${n}"`)
    .join(', ')}) VALUES (${Object.values(row).map(literal).join(', ')});`;
}
