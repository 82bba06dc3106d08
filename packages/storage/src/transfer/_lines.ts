/**
 * @module transfer/lines
 * The lines an export writes, shared by every backend so equal data gives equal
 * bytes: the header, one row line (values encoded by values.ts in column order) and
 * the end line. Rows are handed over as the backend read them, SQLite's forms
 * (integers as bigint, booleans as 0/1, blobs as Buffer).
 */
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportEnd, type ExportHeader } from './format';
import { type TransferTable, transferTables } from './tables';
import { encodeValue } from './values';

/** The header line of an export at schema level `schema`. */
export function headerLine(schema: number, exportedAt: string | null, sequences: Record<string, number>): string {
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    schema,
    exported_at: exportedAt,
    tables: transferTables().map(({ name, columns, key }) => ({ name, columns, key })),
    sequences: sortedByName(sequences),
  };
  return `${JSON.stringify(header)}\n`;
}

/** One row of `table` (`values` in its column order). */
export function rowLine(table: TransferTable, values: readonly unknown[]): string {
  const row: Record<string, unknown> = {};
  table.columns.forEach((column, i) => {
    row[column.name] = encodeValue(values[i], column.type);
  });
  return `${JSON.stringify({ t: table.name, r: row })}\n`;
}

/** The end line for rows counted by table (in header order). */
export function endLine(counts: Record<string, number>): string {
  const rows = Object.values(counts).reduce((a, b) => a + b, 0);
  const end: ExportEnd = { end: { rows, counts } };
  return `${JSON.stringify(end)}\n`;
}

/** Sequences keyed in byte order of table name, as SQLite lists them. */
function sortedByName(sequences: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(sequences).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
