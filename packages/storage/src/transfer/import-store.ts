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
import { readRows, rejected, totalOf } from './_read-rows';
import { rebuildIndexes } from './_rebuild';
import { quoteName } from './_sql';
import { StoreTransferError } from './errors';
import type { ExportHeader, TransferCounts } from './format';
import { transferTables } from './tables';

/** Imports `lines` (the export's lines, without their newlines) into `store`, which must be empty. */
export async function importStore(store: Store, lines: Iterable<string>): Promise<TransferCounts> {
  const iterator = lines[Symbol.iterator]();
  const first = iterator.next();
  const header = readHeader(first.done ? undefined : first.value);
  const { sqlite } = handleOf(store);
  return store.write(() => {
    assertEmpty(store);
    const counts = insertRows(store, header, iterator);
    writeSequences(sqlite, header.sequences);
    rebuildIndexes(sqlite);
    return { schema: header.schema, rows: totalOf(counts), tables: counts };
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
  const rows = readRows(header, lines);
  for (let event = rows.next(); ; event = rows.next()) {
    if (event.done) return event.value;
    const { line, table } = event.value;
    try {
      if (event.value.kind === 'flush') inserters[table]?.flush();
      else inserters[table]?.add(event.value.values);
    } catch (error) {
      throw rejected(line, error);
    }
  }
}
