/**
 * The history's FTS5 index is written in batches (src/_fts-batch.ts): a store's clean
 * close indexes what is pending when the write lock is free, and leaves it for the next
 * search when another connection holds the lock (without waiting long); a search from
 * inside a read transaction indexes nothing. Real store files, a second real connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  ftsMatchExpression,
  indexPendingObservations,
  insertObservation,
  keywordSearch,
  type NewObservation,
  openStore,
  type Store,
  upsertSession,
} from '../src/index';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'storage-fts-batch-'));
  path = join(dir, 'colony.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const note = (content: string): NewObservation => ({ sessionId: 's', kind: 'note', content, ts: 1, tokenCount: 1 });
const search = (store: Store, term: string) => keywordSearch(store, ftsMatchExpression(term, 'all') as string, 50);

function rawState(file: string): { through: number; newest: number; matches: number } {
  const db = new Database(file, { readonly: true });
  try {
    const { through } = db.prepare('SELECT through FROM observations_fts_indexed').get() as { through: number };
    const { newest } = db.prepare('SELECT max(id) AS newest FROM observations').get() as { newest: number };
    const matches = db.prepare(`SELECT rowid FROM observations_fts WHERE observations_fts MATCH 'otter'`).all().length;
    return { through, newest, matches };
  } finally {
    db.close();
  }
}

async function seeded(): Promise<Store> {
  const store = openStore({ path });
  await store.write(() => upsertSession(store, { id: 's' }, 0));
  for (let i = 0; i < 3; i++) await insertObservation(store, note(`otter sighting ${i}`));
  return store;
}

it('a clean close indexes the pending observations', async () => {
  const store = await seeded();
  store.close();
  expect(rawState(path)).toEqual({ through: 3, newest: 3, matches: 3 });
});

it('a close while another connection holds the write lock leaves them pending, soon; the next search indexes them', async () => {
  const store = await seeded();
  const other = new Database(path);
  try {
    other.exec('BEGIN IMMEDIATE');
    const t0 = performance.now();
    store.close();
    // It waits a quarter of a second for the lock, not the store's 15 s busy timeout.
    expect(performance.now() - t0).toBeLessThan(5_000);
    other.exec('ROLLBACK');
  } finally {
    other.close();
  }
  expect(rawState(path)).toEqual({ through: 0, newest: 3, matches: 0 });
  const again = openStore({ path });
  try {
    expect(search(again, 'otter')).toEqual([]);
    expect(await indexPendingObservations(again)).toBe(3);
    expect(search(again, 'otter')).toHaveLength(3);
  } finally {
    again.close();
  }
});

it('inside a read transaction it indexes nothing (no upgrade to a write); after it, it does', async () => {
  const store = await seeded();
  try {
    expect(await store.read(() => indexPendingObservations(store))).toBe(0);
    expect(await store.write(() => indexPendingObservations(store))).toBe(3);
    expect(search(store, 'otter')).toHaveLength(3);
  } finally {
    store.close();
  }
});

it('a search-time index that finds the lock held past its wait indexes nothing and does not fail', async () => {
  const store = await seeded();
  const other = new Database(path);
  try {
    other.exec('BEGIN IMMEDIATE');
    expect(await indexPendingObservations(store)).toBe(0);
    expect(search(store, 'otter')).toEqual([]);
    other.exec('ROLLBACK');
    expect(await indexPendingObservations(store)).toBe(3);
    expect(search(store, 'otter')).toHaveLength(3);
  } finally {
    other.close();
    store.close();
  }
});
