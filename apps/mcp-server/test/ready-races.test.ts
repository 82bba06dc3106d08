/**
 * Races across real OS processes on one database file: eight agents asking
 * task_ready_for_agent (auto-claim) for the one available sub-task at the same moment,
 * and eight operators running rescue_stranded_run at once. Ranking and claiming run in
 * one BEGIN IMMEDIATE transaction, as does planning and applying a rescue, so exactly
 * one process claims and each stranded task is relayed once.
 */

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock } from '@swarm/core';
import { countBatons, countClaims, countSubtaskClaims } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestColony, openTestStore } from './_backend';
import { serverFleet, tempDir } from './_harness';

const FLEET = 8;
/** What no server may log: lock waits spent (either backend) or an internal error. */
const STORE_TROUBLE = /SQLITE_BUSY|database is locked|deadlock detected|could not serialize|internal error/i;

/** Seeds the database in-process, as of `at`. */
async function seed(db: string, dir: string, at: number, calls: Array<[string, Record<string, unknown>]>) {
  const colony = await openTestColony({
    home: dir,
    dbPath: db,
    receipts: false,
    roots: [tmpdir()],
    clock: manualClock(at),
  });
  try {
    for (const [tool, args] of calls) {
      const outcome = await colony.handleToolCall(tool, args);
      if (!outcome.ok) throw new Error(outcome.text);
    }
  } finally {
    await colony.close();
  }
}

describe('ready-work and rescue races between server processes', () => {
  const { start, closeAll } = serverFleet();
  afterEach(closeAll);

  it('lets exactly one of eight auto-claiming agents take the one available sub-task', async () => {
    const dir = tempDir();
    const db = join(dir, 'colony.db');
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    await seed(db, dir, Date.now(), [
      [
        'task_plan_publish',
        {
          repo_root: repo,
          slug: 'one-lane',
          session_id: 'queen-1',
          agent: 'claude',
          title: 'One lane',
          problem: 'p',
          acceptance_criteria: ['done'],
          subtasks: [
            { title: 'Core', description: 'c', file_scope: ['src/core.ts'] },
            { title: 'Verify core', description: 'v', file_scope: ['test/core.test.ts'], depends_on: [0] },
          ],
        },
      ],
    ]);
    const fleet = await Promise.all(Array.from({ length: FLEET }, () => start(db, dir)));
    const answers = await Promise.all(
      fleet.map((s, i) =>
        s.call('task_ready_for_agent', { session_id: `codex-${i}`, agent: 'codex', repo_root: repo }),
      ),
    );
    for (const a of answers) expect(a.isError, a.text).toBe(false);
    const claimed = answers.filter((a) => a.payload.auto_claimed?.ok === true);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]?.payload.auto_claimed).toMatchObject({ plan_slug: 'one-lane', subtask_index: 0 });
    // The others found nothing left to claim (the claim committed before their ranking ran).
    for (const a of answers.filter((x) => x !== claimed[0])) {
      expect(a.payload.auto_claimed).toBeUndefined();
      expect(a.payload.ready).toEqual([]);
    }

    const store = await openTestStore(db);
    try {
      expect(await countSubtaskClaims(store, 'active')).toBe(1);
      expect(await countClaims(store, 'active')).toBe(1);
    } finally {
      await store.close();
    }
    for (const s of fleet) expect(s.stderr()).not.toMatch(STORE_TROUBLE);
  });

  it('relays each stranded task once when eight processes run the rescue at the same moment', async () => {
    const dir = tempDir();
    const db = join(dir, 'colony.db');
    const repo = join(dir, 'repo');
    const longAgo = Date.now() - 60 * 60_000;
    const calls: Array<[string, Record<string, unknown>]> = [];
    for (const [session, branch] of [
      ['claude-gone', 'main'],
      ['codex-gone', 'feature'],
    ] as const) {
      calls.push(['task_thread', { repo_root: repo, branch, session_id: session, agent: session.split('-')[0] }]);
    }
    await seed(db, dir, longAgo, calls);
    const colony = await openTestColony({
      home: dir,
      dbPath: db,
      receipts: false,
      roots: [tmpdir()],
      clock: manualClock(longAgo),
    });
    try {
      for (const [i, session] of ['claude-gone', 'codex-gone'].entries()) {
        for (const file of ['a.ts', 'b.ts']) {
          const outcome = await colony.handleToolCall('task_claim_file', {
            task_id: i + 1,
            session_id: session,
            file_path: `src/${session}/${file}`,
          });
          if (!outcome.ok) throw new Error(outcome.text);
        }
      }
    } finally {
      await colony.close();
    }

    const fleet = await Promise.all(Array.from({ length: FLEET }, () => start(db, dir)));
    const answers = await Promise.all(fleet.map((s) => s.call('rescue_stranded_run', { confirm: true })));
    for (const a of answers) expect(a.isError, a.text).toBe(false);
    const rescued = answers.flatMap((a) => a.payload.rescued as Array<{ session_id: string; task_id: number }>);
    expect(rescued.map((r) => r.session_id).sort()).toEqual(['claude-gone', 'codex-gone']);
    expect(answers.filter((a) => a.payload.rescued.length > 0)).toHaveLength(1);

    const store = await openTestStore(db);
    try {
      expect(await countBatons(store, 'pending')).toBe(2);
      expect(await countClaims(store, 'active')).toBe(0);
      expect(await countClaims(store, 'released')).toBe(4);
    } finally {
      await store.close();
    }
    for (const s of fleet) expect(s.stderr()).not.toMatch(STORE_TROUBLE);
  });
});
