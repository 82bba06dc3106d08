/**
 * @module pg/transfer/export-pg
 * `exportPg`: a PostgreSQL store as colony-store lines, byte for byte what `exportStore`
 * writes for the same data on SQLite: the same line writers (transfer/_lines.ts), tables
 * in the same order, rows in primary-key order (text keys in byte order, COLLATE "C",
 * as SQLite's BINARY), values read in SQLite's forms (_values.ts). The header's schema
 * level is this colony's SQLite level, the one the PostgreSQL schema is derived from
 * (opening a database migrates it to that); `sequences` holds the identity sequences
 * that have handed out a value. One REPEATABLE READ snapshot, read through a cursor in
 * batches, so memory holds a batch, never the store.
 */
import type { PoolClient } from 'pg';
import { MIGRATIONS } from '../../_migrations.generated';
import { endLine, headerLine, rowLine } from '../../transfer/_lines';
import { quoteName } from '../../transfer/_sql';
import type { ExportOptions } from '../../transfer/export-store';
import type { TransferCounts } from '../../transfer/format';
import { type TransferTable, transferTables } from '../../transfer/tables';
import { loadDriver, type PgDatabase } from '../open';
import { identities, withClient } from './_session';
import { readTypes } from './_values';

const BATCH = 500;

/** Writes the export of `target` (a URL or an open database) line by line. */
export async function exportPg(
  target: string | PgDatabase,
  write: (line: string) => void,
  options: ExportOptions = {},
): Promise<TransferCounts> {
  return withClient(target, async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const tables = transferTables();
      const schema = MIGRATIONS.length;
      write(headerLine(schema, options.exportedAt ?? null, await readSequences(client, tables)));
      const counts: Record<string, number> = {};
      for (const table of tables) counts[table.name] = await exportTable(client, table, write);
      write(endLine(counts));
      return { schema, rows: Object.values(counts).reduce((a, b) => a + b, 0), tables: counts };
    } finally {
      await client.query('ROLLBACK');
    }
  });
}

async function readSequences(client: PoolClient, tables: readonly TransferTable[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [table, { sequence }] of await identities(client, new Set(tables.map((t) => t.name)))) {
    const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text AS last_value, is_called FROM ${sequence}`,
    );
    if (rows[0]?.is_called) out[table] = Number(rows[0].last_value);
  }
  return out;
}

async function exportTable(client: PoolClient, table: TransferTable, write: (line: string) => void): Promise<number> {
  const text = new Set(table.columns.filter((c) => c.type === 'text').map((c) => c.name));
  const order = table.key.map((k) => (text.has(k) ? `${quoteName(k)} COLLATE "C"` : quoteName(k))).join(', ');
  const columns = table.columns.map((c) => quoteName(c.name)).join(', ');
  await client.query(
    `DECLARE colony_export NO SCROLL CURSOR FOR SELECT ${columns} FROM ${quoteName(table.name)} ORDER BY ${order}`,
  );
  const types = readTypes((await loadDriver()).types);
  let count = 0;
  for (;;) {
    const { rows } = await client.query<unknown[]>({
      text: `FETCH ${BATCH} FROM colony_export`,
      rowMode: 'array',
      types,
    });
    for (const values of rows) write(rowLine(table, values));
    count += rows.length;
    if (rows.length < BATCH) break;
  }
  await client.query('CLOSE colony_export');
  return count;
}
