/**
 * The write path, through the real server over stdio: a claim already lost answers
 * without waiting for the store's write lock, and receipts are buffered off the lock
 * but never lost on a clean exit.
 */
import { join } from 'node:path';
import { listReceipts, openStore } from '@swarm/storage';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { serverFleet, tempDir } from './_harness';

const fleet = serverFleet();
afterEach(() => fleet.closeAll());

const plan = (slug: string, repo: string) => ({
  repo_root: repo,
  slug,
  session_id: 'queen',
  agent: 'claude',
  title: slug,
  problem: 'one sub-task everyone wants',
  acceptance_criteria: ['one winner'],
  subtasks: [
    { title: 'contended', description: 'x', file_scope: ['src/a.ts'] },
    { title: 'free', description: 'y', file_scope: ['docs/b.md'] },
  ],
});

describe('a plan sub-task claim', () => {
  it('answers PLAN_SUBTASK_NOT_AVAILABLE at once when already lost, while another writer holds the lock', async () => {
    const home = tempDir('colony-writepath-');
    const db = join(home, 'colony.db');
    const server = await fleet.start(db, home, { env: { COLONY_BUSY_TIMEOUT_MS: '4000' } });
    const repo = tempDir('colony-writepath-repo-');
    expect((await server.call('task_plan_publish', plan('lost', repo))).isError).toBe(false);
    const won = await server.call('task_plan_claim_subtask', {
      plan_slug: 'lost',
      subtask_index: 0,
      session_id: 'winner',
      agent: 'codex',
    });
    expect(won.isError).toBe(false);

    const holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const t0 = performance.now();
      const lost = await server.call('task_plan_claim_subtask', {
        plan_slug: 'lost',
        subtask_index: 0,
        session_id: 'late',
        agent: 'claude',
      });
      const ms = performance.now() - t0;
      expect(lost.payload).toMatchObject({ code: 'PLAN_SUBTASK_NOT_AVAILABLE', claimed_by_agent: 'codex' });
      expect(ms).toBeLessThan(2000); // not the 4 s busy timeout
      const again = await server.call('task_plan_claim_subtask', {
        plan_slug: 'lost',
        subtask_index: 0,
        session_id: 'winner',
        agent: 'codex',
      });
      expect(again.payload).toMatchObject({ already_claimed: true });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});

describe('receipts', () => {
  it('keeps every call of a clean exit, with token counts, written off the calls', async () => {
    const home = tempDir('colony-writepath-');
    const db = join(home, 'colony.db');
    const server = await fleet.start(db, home);
    const thread = await server.call('task_thread', {
      repo_root: '/abs/repo',
      branch: 'main',
      session_id: 's1',
      agent: 'codex',
    });
    for (let i = 0; i < 30; i++) {
      const posted = await server.call('task_post', {
        task_id: thread.payload.task_id,
        session_id: 's1',
        kind: 'note',
        content: `note ${i} about receipts riding in the next write`,
      });
      expect(posted.isError).toBe(false);
    }
    await fleet.closeAll();
    const store = openStore({ path: db });
    try {
      const receipts = listReceipts(store, 0);
      expect(receipts.filter((r) => r.operation === 'task_post')).toHaveLength(30);
      expect(receipts.every((r) => r.inputTokens > 0 && r.outputTokens > 0)).toBe(true);
    } finally {
      store.close();
    }
  });
});
