/**
 * The write path, through the real server over stdio: a claim already lost answers
 * without waiting for the store's write lock, and receipts are buffered off the lock
 * but never lost on a clean exit.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { listReceipts } from '@swarm/storage';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { findPgBin } from '../../../test/support/pg-cluster.mjs';
import { dbFor, ON_POSTGRES, openTestStore } from './_backend';
import { serverFleet, tempDir } from './_harness';

const fleet = serverFleet();
afterEach(() => fleet.closeAll());

/**
 * Another writer holding the store's write lock until the returned release: on SQLite a
 * BEGIN IMMEDIATE; on PostgreSQL (no store-wide lock) a psql process holding, in EXCLUSIVE
 * mode, every table a claim writes, so any write waits while plain reads go on.
 */
async function holdWriteLock(db: string): Promise<() => Promise<void>> {
  if (!ON_POSTGRES) {
    const holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
    return async () => {
      holder.exec('ROLLBACK');
      holder.close();
    };
  }
  const psql = spawn(join(findPgBin() as string, 'psql'), [dbFor(db), '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1']);
  let out = '';
  psql.stdout.on('data', (chunk) => {
    out += chunk;
  });
  psql.stdin.write(
    'BEGIN; LOCK TABLE plan_subtasks, plan_subtask_claims, file_claims, observations, sessions, tasks, task_participants, mcp_metrics IN EXCLUSIVE MODE; SELECT 1;\n',
  );
  for (let i = 0; !out.includes('1') && i < 200; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!out.includes('1')) throw new Error('psql did not take the locks');
  return async () => {
    psql.stdin.end('ROLLBACK;\n');
    await once(psql, 'exit');
  };
}

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

    const release = await holdWriteLock(db);
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
      await release();
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
    const store = await openTestStore(db);
    try {
      const receipts = await listReceipts(store, 0);
      expect(receipts.filter((r) => r.operation === 'task_post')).toHaveLength(30);
      expect(receipts.every((r) => r.inputTokens > 0 && r.outputTokens > 0)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
