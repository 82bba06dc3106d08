/**
 * @module store-transfer
 * `colony store export` / `import` over one store file: opens it as openColony does
 * (store refusals are ColonyErrors), runs @swarm/storage's exportStore or importStore,
 * and closes it. An import that fails into a file it created removes that file again,
 * so a refused import leaves the target as it found it, absent included.
 */
import { existsSync, rmSync } from 'node:fs';
import {
  type ExportOptions,
  exportStore,
  importStore,
  openStore,
  type Store,
  type TransferCounts,
} from '@swarm/storage';
import { ColonyError } from '@swarm/tools';

function open(dbPath: string): Store {
  return openStore({
    path: dbPath,
    refuse: (refusal, cause) => new ColonyError(refusal.code, refusal.message, { details: refusal.details, cause }),
  });
}

/** Exports the store at `dbPath` line by line to `write` (see @swarm/storage's format). */
export async function exportStoreFile(
  dbPath: string,
  write: (line: string) => void,
  options: ExportOptions = {},
): Promise<TransferCounts> {
  const store = open(dbPath);
  try {
    return await exportStore(store, write, options);
  } finally {
    store.close();
  }
}

/** Imports `lines` into the store at `dbPath` (new or empty), all or nothing. */
export async function importStoreFile(dbPath: string, lines: Iterable<string>): Promise<TransferCounts> {
  const existed = dbPath === ':memory:' || existsSync(dbPath);
  let store: Store | undefined;
  try {
    store = open(dbPath);
    return await importStore(store, lines);
  } catch (error) {
    store?.close();
    store = undefined;
    if (!existed) for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
    throw error;
  } finally {
    store?.close();
  }
}
