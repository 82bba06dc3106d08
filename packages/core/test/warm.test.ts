/**
 * Colony.warm (a stdio server's idle-time warm-up) prepares a first call's hot paths
 * and writes nothing: the store's files stay byte for byte as they were, no receipt
 * is recorded, and the first call after it answers as on a cold colony.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, openColony } from '../src/index';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function seeded() {
  const dir = mkdtempSync(join(tmpdir(), 'colony-warm-'));
  dirs.push(dir);
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  const open = () => openColony({ home: join(dir, 'home'), dbPath: join(dir, 'c.db'), clock: manualClock(1_000) });
  return { dir, repo, open };
}

const files = (dir: string) =>
  ['c.db', 'c.db-wal'].map((name) => {
    try {
      return readFileSync(join(dir, name)).toString('base64');
    } catch {
      return null;
    }
  });

describe('Colony.warm', () => {
  it('writes nothing to the store, and the first call after it answers as without it', async () => {
    const { dir, repo, open } = seeded();
    const seed = open();
    const thread = await seed.handleToolCall('task_thread', {
      repo_root: repo,
      branch: 'main',
      session_id: 's1',
      agent: 'codex',
    });
    expect(thread.ok).toBe(true);
    await seed.close();

    const colony = open();
    const before = files(dir);
    const statusBefore = await colony.status();
    colony.warm();
    colony.warm(); // twice: still nothing
    expect(files(dir)).toEqual(before);
    expect(await colony.status()).toEqual(statusBefore);
    const post = await colony.handleToolCall('task_post', {
      task_id: thread.ok ? thread.value.task_id : 0,
      session_id: 's1',
      kind: 'note',
      content: 'after warm-up',
    });
    expect(post).toMatchObject({ ok: true, value: { id: expect.any(Number) } });
    await colony.close();
    colony.warm(); // closed: a no-op, no throw
  });
});
