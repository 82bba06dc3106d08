/**
 * @module transfer/export-store
 * `exportStore`: the whole store as colony-store lines (see format.ts), read from one
 * snapshot (`Store.read`) and handed to `write` one line at a time, so memory holds a
 * row, never the store. Two exports of the same data are byte-identical when given
 * the same `exportedAt` (null leaves the time out).
 */
import type Database from 'better-sqlite3';
import { handleOf, type Store } from '../_store';
import { readSequences, schemaLevel } from './_level';
import { endLine, headerLine, rowLine } from './_lines';
import { quoteName } from './_sql';
import type { TransferCounts } from './format';
import { type TransferTable, transferTables } from './tables';

export interface ExportOptions {
  /** The header's `exported_at` (an ISO time); null or absent: none, for comparable exports. */
  readonly exportedAt?: string | null;
}

/** Writes the export line by line (each ends with a newline); returns what it exported. */
export function exportStore(
  store: Store,
  write: (line: string) => void,
  options: ExportOptions = {},
): Promise<TransferCounts> {
  const { sqlite } = handleOf(store);
  const tables = transferTables();
  return store.read(() => {
    const schema = schemaLevel(sqlite);
    write(headerLine(schema, options.exportedAt ?? null, readSequences(sqlite, new Set(tables.map((t) => t.name)))));
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table.name] = exportTable(sqlite, table, write);
    write(endLine(counts));
    return { schema, rows: Object.values(counts).reduce((a, b) => a + b, 0), tables: counts };
  });
}

function exportTable(sqlite: Database.Database, table: TransferTable, write: (line: string) => void): number {
  const order = table.key.length > 0 ? table.key.map(quoteName).join(', ') : 'rowid';
  const columns = table.columns.map((c) => quoteName(c.name)).join(', ');
  const select = sqlite.prepare(`SELECT ${columns} FROM ${quoteName(table.name)} ORDER BY ${order}`);
  select.safeIntegers(true).raw(true);
  let count = 0;
  for (const values of select.iterate() as Iterable<unknown[]>) {
    write(rowLine(table, values));
    count++;
  }
  return count;
}
