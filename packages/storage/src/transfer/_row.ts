/**
 * @module transfer/row
 * One line after the header, parsed and checked against the header: a row of a table
 * the header lists (tables in header order), with exactly that table's columns and a
 * value in this format for each; or the end line. Anything else is STORE_IMPORT_MALFORMED
 * naming the line.
 */
import { isRecord, parseJson } from './_json';
import { StoreTransferError } from './errors';
import type { ExportHeader } from './format';
import { decodeValue, type SqlValue } from './values';

export type ParsedLine =
  | { readonly kind: 'row'; readonly table: number; readonly values: SqlValue[] }
  | { readonly kind: 'end'; readonly rows: number; readonly counts: Record<string, unknown> };

export function malformed(lineNo: number, why: string): StoreTransferError {
  return new StoreTransferError('STORE_IMPORT_MALFORMED', `line ${lineNo}: ${why}`, { line: lineNo });
}

/** Parses line `lineNo`; `minTable` is the header index of the table of the previous row. */
export function parseLine(header: ExportHeader, text: string, lineNo: number, minTable: number): ParsedLine {
  const parsed = parseJson(text);
  if (!isRecord(parsed)) throw malformed(lineNo, 'not a JSON object');
  if ('end' in parsed) {
    const end = parsed.end;
    if (!isRecord(end) || typeof end.rows !== 'number' || !isRecord(end.counts))
      throw malformed(lineNo, 'a bad end line');
    return { kind: 'end', rows: end.rows, counts: end.counts };
  }
  const table = header.tables.findIndex((t) => t.name === parsed.t);
  if (table < 0) throw malformed(lineNo, `table ${JSON.stringify(parsed.t)} is not in the header`);
  if (table < minTable) throw malformed(lineNo, `a row of ${String(parsed.t)} after rows of a later table`);
  const row = parsed.r;
  const columns = header.tables[table]?.columns ?? [];
  if (!isRecord(row) || Object.keys(row).length !== columns.length) {
    throw malformed(lineNo, `a row of ${String(parsed.t)} needs exactly its ${columns.length} columns`);
  }
  const values = columns.map((column) => {
    const value = column.name in row ? decodeValue(row[column.name]) : undefined;
    if (value === undefined) throw malformed(lineNo, `column ${column.name} is missing or has a bad value`);
    return value;
  });
  return { kind: 'row', table, values };
}
