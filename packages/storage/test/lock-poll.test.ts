/**
 * A write that may turn out unneeded (`unlessSettled`): while another process holds the
 * write lock, the store re-reads instead of queueing, answers from the read once the
 * holder's commit settles it, writes when the holder gives up, and refuses as
 * STORE_BUSY past its timeout. The holder is a real process.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { BUSY_TIMEOUT_MS, handleOf, isStoreBusy, openStore, type Store } from '../src/_store';
import { tempDir } from './_matrix';

const SQLITE = createRequire(import.meta.url).resolve('better-sqlite3');
/** Takes the write lock, says so, holds it `ms`, then commits (a marker table) or rolls back. */
const HOLDER = `
const [sqlite, path, ms, end] = process.argv.slice(1);
const db = new (require(sqlite))(path, { timeout: 5000 });
db.exec('BEGIN IMMEDIATE; CREATE TABLE marker (x)');
process.stdout.write('locked\\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
db.exec(end === 'commit' ? 'COMMIT' : 'ROLLBACK');
db.close();
`;

const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

async function holdLock(
  path: string,
  ms: number,
  end: 'commit' | 'rollback',
): Promise<{ exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['-e', HOLDER, SQLITE, path, String(ms), end], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`holder exited ${code} before locking`)));
  });
  return { exited };
}

function open(): Store {
  const store = openStore({ path: join(tempDir('colony-lockpoll-'), 'colony.db') });
  stores.push(store);
  return store;
}

const hasMarker = (store: Store) =>
  handleOf(store).sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'marker'").get() as {
    n: number;
  };

it('answers from a read as soon as the holder commits what settles it, without writing', async () => {
  const store = open();
  const { exited } = await holdLock(store.path, 300, 'commit');
  let wrote = false;
  const t0 = performance.now();
  const answer = await store.write(
    () => {
      wrote = true;
      return 'wrote';
    },
    { unlessSettled: () => (hasMarker(store).n > 0 ? 'settled' : undefined) },
  );
  expect(answer).toBe('settled');
  expect(wrote).toBe(false);
  expect(performance.now() - t0).toBeGreaterThan(200);
  expect(await exited).toBe(0);
  expect(handleOf(store).sqlite.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
});

it('writes once the holder gives up the lock without settling anything', async () => {
  const store = open();
  const { exited } = await holdLock(store.path, 200, 'rollback');
  const answer = await store.write(
    () => {
      handleOf(store).sqlite.exec('CREATE TABLE mine (x)');
      return 'wrote';
    },
    { unlessSettled: () => (hasMarker(store).n > 0 ? 'settled' : undefined) },
  );
  expect(answer).toBe('wrote');
  expect(await exited).toBe(0);
});

it('refuses as STORE_BUSY when the lock is held past its timeout', async () => {
  const store = open();
  const { exited } = await holdLock(store.path, 800, 'rollback');
  let thrown: unknown;
  try {
    await store.write(() => 'wrote', { busyTimeoutMs: 150, unlessSettled: () => undefined });
  } catch (error) {
    thrown = error;
  }
  expect(isStoreBusy(thrown), String(thrown)).toBe(true);
  expect(handleOf(store).sqlite.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
  await exited;
});
