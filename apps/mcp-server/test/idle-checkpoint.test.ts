/**
 * The served store's WAL is checkpointed in idle time (core serve/idle-checkpoint):
 * through the real server over stdio, posts well past SQLite's 1,000-page threshold
 * leave the database file untouched while they run, and once the server has been quiet
 * every row is in the database file itself (read from a copy of the file alone).
 */
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { serverFleet, tempDir } from './_harness';

const fleet = serverFleet();
afterEach(() => fleet.closeAll());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Notes in the database file without its WAL. A copy taken while a checkpoint writes
 * into the file can be torn (SQLITE_CORRUPT): that counts as not there yet.
 */
function notesInFile(db: string, copy: string): number {
  copyFileSync(db, copy);
  const sqlite = new Database(copy);
  try {
    const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = 'observations'").get();
    return table
      ? (sqlite.prepare("SELECT count(*) FROM observations WHERE kind = 'note'").pluck().get() as number)
      : 0;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_CORRUPT')) return -1;
    throw error;
  } finally {
    sqlite.close();
  }
}

it('checkpoints once the server is quiet, not on the calls', { timeout: 30_000 }, async () => {
  const home = tempDir('colony-idle-ckpt-');
  const db = join(home, 'colony.db');
  const server = await fleet.start(db, home);
  const repo = tempDir('colony-idle-ckpt-repo-');
  const thread = await server.call('task_thread', {
    repo_root: repo,
    branch: 'main',
    session_id: 's1',
    agent: 'codex',
  });
  // Posts until the WAL is past 1,100 pages (a post writes about 7.5).
  const walPages = () => statSync(`${db}-wal`).size / 4096;
  let posts = 0;
  while (posts < 2_000 && (posts === 0 || walPages() <= 1_100)) {
    const i = posts++;
    const r = await server.call('task_post', {
      task_id: thread.payload.task_id,
      session_id: 's1',
      kind: 'note',
      content: `note ${i}: the write path keeps receipts off the lock and answers lost claims at once`,
    });
    expect(r.isError).toBe(false);
  }
  // Under SQLite's default the WAL would have been checkpointed (and reused) at ~1,000 pages.
  expect(walPages()).toBeGreaterThan(1_100);
  let inFile = 0;
  for (let waited = 0; waited < 10_000 && inFile < posts; waited += 250) {
    await sleep(250);
    inFile = notesInFile(db, join(home, `copy-${waited}.db`));
  }
  expect(inFile).toBe(posts);
});
