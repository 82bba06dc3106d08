/**
 * Every row of a test store, table by table, on the backend under test (_backend.ts):
 * read through `colony store export` (SQLite `exportStore`, PostgreSQL `exportPg`), which
 * lists every table of the schema in primary-key order with values in the same form on
 * both backends, so two reads compare equal exactly when no row changed.
 */
import { exportStore, openStore } from '@swarm/storage';
import { dbFor, ON_POSTGRES } from './_backend';

export type StoreRows = Record<string, Array<Record<string, unknown>>>;

/** The rows of the store at `path`, keyed by table (a table without rows is absent). */
export async function storeRows(path: string): Promise<StoreRows> {
  const rows: StoreRows = {};
  const write = (line: string) => {
    const parsed = JSON.parse(line) as { t?: string; r?: Record<string, unknown> };
    if (parsed.t === undefined || parsed.r === undefined) return;
    rows[parsed.t] = [...(rows[parsed.t] ?? []), parsed.r];
  };
  if (ON_POSTGRES) {
    const { exportPg } = await import('@swarm/storage/pg');
    await exportPg(dbFor(path), write);
    return rows;
  }
  const store = openStore({ path });
  try {
    await exportStore(store, write);
    return rows;
  } finally {
    store.close();
  }
}
