/**
 * @module transfer/read-rows
 * The lines after the header as a stream of rows to insert, shared by every backend's
 * import: rows checked against the header (parseLine), `flush` events where the
 * inserter of the previous table (or, at the end line, the last one) must write what
 * it holds, and, when the generator returns, the counts checked against the end line.
 * A file without its end line is STORE_IMPORT_TRUNCATED; a row the target refuses is
 * turned into STORE_IMPORT_REJECTED by `rejected`.
 */
import { malformed, parseLine } from './_row';
import { StoreTransferError } from './errors';
import type { ExportHeader } from './format';
import type { SqlValue } from './values';

export type RowEvent =
  | { readonly kind: 'row'; readonly table: number; readonly values: SqlValue[]; readonly line: number }
  | { readonly kind: 'flush'; readonly table: number; readonly line: number };

/** Yields rows and flushes; returns the rows per table once the end line checks out. */
export function* readRows(header: ExportHeader, lines: Iterator<string>): Generator<RowEvent, Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(header.tables.map((t) => [t.name, 0]));
  let current = 0;
  let lineNo = 1;
  for (let item = lines.next(); !item.done; ) {
    lineNo++;
    const after = lines.next();
    const parsed = parseOrTruncated(header, item.value, lineNo, current, after.done === true);
    if (parsed.kind === 'end') {
      if (!after.done) throw malformed(lineNo + 1, 'a line after the end line');
      yield { kind: 'flush', table: current, line: lineNo };
      checkEnd(parsed.rows, parsed.counts, counts, lineNo);
      return counts;
    }
    if (parsed.table !== current) yield { kind: 'flush', table: current, line: lineNo };
    current = parsed.table;
    const name = header.tables[current]?.name ?? '';
    counts[name] = (counts[name] ?? 0) + 1;
    yield { kind: 'row', table: current, values: parsed.values, line: lineNo };
    item = after;
  }
  throw new StoreTransferError(
    'STORE_IMPORT_TRUNCATED',
    `the export ends at line ${lineNo} without its end line: it was cut short`,
    { line: lineNo },
  );
}

/** A last line that does not parse was cut mid-line: truncated, not malformed. */
function parseOrTruncated(header: ExportHeader, text: string, lineNo: number, current: number, last: boolean) {
  try {
    return parseLine(header, text, lineNo, current);
  } catch (error) {
    if (!last) throw error;
    throw new StoreTransferError('STORE_IMPORT_TRUNCATED', `the export ends inside line ${lineNo}: it was cut short`, {
      line: lineNo,
    });
  }
}

function checkEnd(
  rows: number,
  expected: Record<string, unknown>,
  counts: Record<string, number>,
  lineNo: number,
): void {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const same = Object.keys(counts).every((name) => (expected[name] ?? 0) === counts[name]);
  if (total !== rows || !same) {
    throw new StoreTransferError(
      'STORE_IMPORT_MALFORMED',
      `line ${lineNo}: the end line counts ${rows} rows but the file holds ${total} (rows were added or removed)`,
      { line: lineNo, expected: expected, found: counts },
    );
  }
}

/** A row the target refused (a constraint), naming its line; a StoreTransferError passes unchanged. */
export function rejected(lineNo: number, error: unknown): StoreTransferError {
  if (error instanceof StoreTransferError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StoreTransferError(
    'STORE_IMPORT_REJECTED',
    `at or before line ${lineNo}: the store refused a row (${message})`,
    { line: lineNo },
    error,
  );
}

/** The total of per-table counts. */
export function totalOf(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
