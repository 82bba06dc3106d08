/**
 * @module transfer/import-store
 * `importStore`: a colony-store export (format.ts) into an empty store, all or nothing.
 * The header is checked before the transaction; then one write transaction checks the
 * store is empty, inserts the rows in batches, checks the end line's counts, restores
 * the AUTOINCREMENT counters and rebuilds the search indexes. Any refusal (a
 * StoreTransferError with a stable code) rolls everything back.
 */
import { handleOf, type Store } from '../_store';
import { BatchInsert } from './_batch-insert';
import { readHeader } from './_header';
import { writeSequences } from './_level';
import { rebuildIndexes } from './_rebuild';
import { malformed, parseLine } from './_row';
import { quoteName } from './_sql';
import { StoreTransferError } from './errors';
import type { ExportHeader, TransferCounts } from './format';
import { transferTables } from './tables';

/** Imports `lines` (the export's lines, without their newlines) into `store`, which must be empty. */
export function importStore(store: Store, lines: Iterable<string>): TransferCounts {
  const iterator = lines[Symbol.iterator]();
  const first = iterator.next();
  const header = readHeader(first.done ? undefined : first.value);
  const { sqlite } = handleOf(store);
  return store.write(() => {
    assertEmpty(store);
    const counts = insertRows(store, header, iterator);
    writeSequences(sqlite, header.sequences);
    rebuildIndexes(sqlite);
    return { schema: header.schema, rows: Object.values(counts).reduce((a, b) => a + b, 0), tables: counts };
  });
}

function assertEmpty(store: Store): void {
  const { sqlite } = handleOf(store);
  const filled = transferTables().filter((t) => sqlite.prepare(`SELECT 1 FROM ${quoteName(t.name)} LIMIT 1`).get());
  if (filled.length > 0) {
    throw new StoreTransferError(
      'STORE_IMPORT_NOT_EMPTY',
      `the store ${store.path} already holds rows (in ${filled.map((t) => t.name).join(', ')}): import into a new or empty store`,
      { db_path: store.path, tables: filled.map((t) => t.name) },
    );
  }
}

function insertRows(store: Store, header: ExportHeader, lines: Iterator<string>): Record<string, number> {
  const { sqlite } = handleOf(store);
  const inserters = header.tables.map(
    (t) =>
      new BatchInsert(
        sqlite,
        t.name,
        t.columns.map((c) => c.name),
      ),
  );
  const counts: Record<string, number> = Object.fromEntries(header.tables.map((t) => [t.name, 0]));
  let current = 0;
  let lineNo = 1;
  for (let item = lines.next(); !item.done; ) {
    lineNo++;
    const after = lines.next();
    const parsed = parseOrTruncated(header, item.value, lineNo, current, after.done === true);
    if (parsed.kind === 'end') {
      if (!after.done) throw malformed(lineNo + 1, 'a line after the end line');
      rejectOnError(lineNo, () => inserters[current]?.flush());
      checkEnd(parsed.rows, parsed.counts, counts, lineNo);
      return counts;
    }
    if (parsed.table !== current) rejectOnError(lineNo, () => inserters[current]?.flush());
    current = parsed.table;
    const name = header.tables[current]?.name ?? '';
    counts[name] = (counts[name] ?? 0) + 1;
    rejectOnError(lineNo, () => inserters[current]?.add(parsed.values));
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

/** A row the store refuses (a constraint) names its line; nothing is kept. */
function rejectOnError(lineNo: number, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new StoreTransferError(
      'STORE_IMPORT_REJECTED',
      `at or before line ${lineNo}: the store refused a row (${message})`,
      { line: lineNo },
      error,
    );
  }
}
