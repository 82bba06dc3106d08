/**
 * openStore on odd files, and the write rider: refusals carry stable codes, and
 * bookkeeping folded into a write commits or rolls back with it.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { countSessions, openStore, StoreError, upsertSession } from '../src/index';
import { tempDir } from './_matrix';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusalOf(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

async function refusalOfAsync(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof StoreError) return error;
  throw error ?? new Error('expected a StoreError');
}

describe('openStore on odd files', () => {
  it('refuses a file that is not a database with STORE_CORRUPT naming it', () => {
    const path = join(dir, 'text.db');
    writeFileSync(path, 'not a database at all '.repeat(100));
    const error = refusalOf(() => openStore({ path }));
    expect(error.code).toBe('STORE_CORRUPT');
    expect(error.message).toContain(path);
    expect(error.details).toMatchObject({ db_path: path });
  });

  it('opens a store with an unknown newer migration read-only: STORE_TOO_NEW on write', async () => {
    const path = join(dir, 'newer.db');
    openStore({ path }).close();
    const sqlite = new Database(path);
    sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('future', 9e15);
    sqlite.close();
    const store = openStore({ path });
    try {
      expect(store.writable).toBe(false);
      expect(countSessions(store)).toBe(0);
      const error = await refusalOfAsync(store.write(() => upsertSession(store, { id: 'a' }, 1)));
      expect(error.code).toBe('STORE_TOO_NEW');
      expect(error.details.store_schema_version).toBe(Number(error.details.colony_schema_version) + 1);
    } finally {
      store.close();
    }
  });

  it('answers STORE_BUSY (retryable) when another connection holds the lock past a short wait', async () => {
    const path = join(dir, 'busy.db');
    const store = openStore({ path });
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const error = await refusalOfAsync(
        store.write(() => upsertSession(store, { id: 'a' }, 1), { busyTimeoutMs: 10 }),
      );
      expect(error.code).toBe('STORE_BUSY');
      expect(error.details).toMatchObject({ retryable: true });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    await store.write(() => upsertSession(store, { id: 'a' }, 1));
    expect(countSessions(store)).toBe(1);
    store.close();
  });
});

describe('the write rider', () => {
  it('writes inside the next write, and tells it whether that write committed or rolled back', async () => {
    const store = openStore({ path: ':memory:' });
    const committed: string[] = [];
    const rolledBack: string[] = [];
    let n = 0;
    store.setWriteRider(() => {
      const id = `rider-${++n}`;
      upsertSession(store, { id }, 1);
      return (ok) => (ok ? committed : rolledBack).push(id);
    });
    await expect(
      store.write(() => {
        upsertSession(store, { id: 'refused' }, 1);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(countSessions(store)).toBe(0);
    expect(committed).toEqual([]);
    expect(rolledBack).toEqual(['rider-1']);
    await store.write(() => upsertSession(store, { id: 'ok' }, 1));
    expect(countSessions(store)).toBe(2);
    expect(committed).toEqual(['rider-2']);
    store.close();
  });
});
