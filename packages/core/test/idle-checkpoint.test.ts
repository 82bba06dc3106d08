/**
 * A server's WAL checkpoint waits for idle time (serve/idle-checkpoint, a job of its
 * idle scheduler): on a real colony store, commits no longer checkpoint by themselves
 * at SQLite's 1,000 pages, one PASSIVE checkpoint runs once the quiet time after the
 * last call has passed (a call in it pushes it back), copying every row into the
 * database file, and nothing runs after stop.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countObservations, indexPendingObservations, openStore } from '@swarm/storage';
import { afterEach, expect, it } from 'vitest';
import { type Colony, openColony } from '../src/index';
import { IdleScheduler } from '../src/serve/_idle';
import { IdleCheckpoint, SERVE_AUTO_CHECKPOINT_PAGES } from '../src/serve/_idle-checkpoint';

const DELAY = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The idle checkpoint on its own scheduler: `called()` is a call that began and ended. */
function scheduled(colony: Colony, onError: (error: unknown) => void) {
  const checkpoint = new IdleCheckpoint(colony, onError, DELAY);
  const idle = new IdleScheduler();
  idle.add(checkpoint);
  return {
    called: () => {
      idle.begin();
      idle.end();
    },
    stop: () => idle.stop(),
    get runs() {
      return checkpoint.runs;
    },
  };
}
const dirs: string[] = [];
const colonies: Colony[] = [];
afterEach(async () => {
  for (const colony of colonies.splice(0)) await colony.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function posting() {
  const dir = mkdtempSync(join(tmpdir(), 'colony-idle-ckpt-'));
  dirs.push(dir);
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  const dbPath = join(dir, 'c.db');
  const colony = openColony({ home: join(dir, 'home'), dbPath, receipts: false });
  colonies.push(colony);
  const thread = await colony.handleToolCall('task_thread', {
    repo_root: repo,
    branch: 'main',
    session_id: 's1',
    agent: 'codex',
  });
  const taskId = JSON.parse(thread.text).task_id as number;
  const post = async (i: number) => {
    const outcome = await colony.handleToolCall('task_post', {
      task_id: taskId,
      session_id: 's1',
      kind: 'note',
      content: `post ${i}: a note long enough to look like one an agent leaves on its task thread`,
    });
    expect(outcome.ok).toBe(true);
  };
  /** Observations in the database file alone (what checkpoints have copied), read from a copy of it. */
  const notesInFile = () => {
    const copy = join(dir, `copy-${Date.now()}-${Math.random()}.db`);
    copyFileSync(dbPath, copy);
    const store = openStore({ path: copy });
    try {
      return countObservations(store);
    } finally {
      store.close();
    }
  };
  return { colony, dbPath, post, notesInFile };
}

it('commits past 1,000 WAL pages do not checkpoint; the idle checkpoint copies every row', async () => {
  const { colony, dbPath, post, notesInFile } = await posting();
  const idle = scheduled(colony, (error) => {
    throw error;
  });
  // SQLite's default would checkpoint after ~1,000 pages: these posts write more than that.
  const walPages = () => statSync(`${dbPath}-wal`).size / 4096;
  let posts = 0;
  while (walPages() <= 1_100 && posts < 2_000) await post(posts++);
  expect(walPages()).toBeGreaterThan(1_100);
  expect(walPages()).toBeLessThan(SERVE_AUTO_CHECKPOINT_PAGES);
  expect(notesInFile()).toBe(0);
  idle.called();
  expect(idle.runs).toBe(0);
  await sleep(DELAY * 4);
  expect(idle.runs).toBe(1);
  expect(notesInFile()).toBe((await colony.status()).observations);
  expect((await colony.status()).observations).toBeGreaterThanOrEqual(posts);
  idle.stop();
});

it('first indexes the observations a batch has not indexed yet, so the checkpoint copies them indexed', async () => {
  const { colony, dbPath, post } = await posting();
  const idle = scheduled(colony, (error) => {
    throw error;
  });
  for (let i = 0; i < 5; i++) await post(i);
  idle.called();
  await sleep(DELAY * 4);
  expect(idle.runs).toBe(1);
  // The database file alone (a copy): every row is in it, and none is left to index.
  const copy = join(dbPath, '..', 'indexed-copy.db');
  copyFileSync(dbPath, copy);
  const store = openStore({ path: copy });
  try {
    expect(countObservations(store)).toBe((await colony.status()).observations);
    expect(await indexPendingObservations(store)).toBe(0);
  } finally {
    store.close();
  }
  idle.stop();
});

it('a call in the quiet time pushes the checkpoint back; nothing runs after stop', async () => {
  const { colony, post, notesInFile } = await posting();
  const idle = scheduled(colony, () => undefined);
  await post(0);
  idle.called();
  await sleep(DELAY / 2);
  await post(1);
  idle.called();
  await sleep(DELAY * 0.75);
  expect(idle.runs).toBe(0);
  await sleep(DELAY * 3);
  expect(idle.runs).toBe(1);
  const copied = notesInFile();
  expect(copied).toBe((await colony.status()).observations);
  await post(2);
  idle.called();
  idle.stop();
  await sleep(DELAY * 3);
  expect(idle.runs).toBe(1);
  expect(notesInFile()).toBe(copied);
});
