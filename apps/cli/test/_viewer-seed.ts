/**
 * A seeded store for the viewer's browser test, written through the real tool registry
 * with a manual clock: five sessions whose last heartbeats are 1, 3, 8 and 30 minutes
 * and 3 hours old, a four-sub-task plan in three waves (one completed, one claimed,
 * one claimable now, one waiting), file claims, a blocking and a needs_reply message,
 * a pending handoff, and tool-call receipts spread over the last six hours.
 */

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Colony, manualClock, openColony } from '@swarm/core';

export const T0 = Date.UTC(2026, 3, 1, 12, 30);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const PLAN_SLUG = 'widget-page';
export const PLAN_TITLE = 'Ship the widget page';
export const SUBTASKS = ['Prepare widget storage', 'Build widget API', 'Build widget UI', 'Verify widget release'];
export const BLOCKING_MESSAGE = 'Stop editing the parser: codex is mid-rewrite <b>now</b>';
export const NEEDS_REPLY_MESSAGE = 'Which schema version should the widget API return?';
export const HANDOFF_SUMMARY = 'Widget storage migration half done: finish the index';
export const CLAIMED_FILE = 'apps/web/src/widget-card.tsx';

export interface SeededStore {
  readonly dir: string;
  readonly db: string;
  readonly home: string;
  readonly repo: string;
  /** Receipts written, per hour offset from T0 (0 = T0's hour). */
  readonly receiptsPerHour: Readonly<Record<number, number>>;
}

type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

function caller(colony: Colony): Call {
  return async (name, args) => {
    const outcome = await colony.handleToolCall(name, args);
    if (!outcome.ok) throw new Error(`${name}: ${outcome.text}`);
    return outcome.value as Record<string, unknown>;
  };
}

const sub = (title: string, file: string, depends_on: number[], capability_hint: string) => ({
  title,
  description: `${title}.`,
  file_scope: [file],
  depends_on,
  capability_hint,
});

export async function seedViewerStore(dir: string): Promise<SeededStore> {
  const db = join(dir, 'colony.db');
  const home = join(dir, 'home');
  const repo = join(dir, 'repo');
  mkdirSync(repo, { recursive: true });
  const clock = manualClock(T0 - 6 * HOUR);
  const at = (msBeforeT0: number) => clock.set(T0 - msBeforeT0);
  // Receipts on: every call below leaves one at the clock's time, as a real fleet's calls do.
  const colony = openColony({ home, dbPath: db, clock, roots: [tmpdir()] });
  const call = caller(colony);
  const receiptsPerHour: Record<number, number> = {};
  const count = () => {
    const hour = Math.floor((clock.now() - Math.floor(T0 / HOUR) * HOUR) / HOUR);
    receiptsPerHour[hour] = (receiptsPerHour[hour] ?? 0) + 1;
  };
  const counted: Call = async (name, args) => {
    count();
    return call(name, args);
  };
  try {
    // Six hours of background reads: 2, 4, 6, ... calls per hour.
    for (let h = 6; h >= 1; h--) {
      for (let i = 0; i < 2 * (7 - h); i++) {
        at(h * HOUR - i * MINUTE);
        await counted('search', { query: `widget ${i}`, limit: 5 });
      }
    }

    at(3 * HOUR);
    await counted('task_thread', { repo_root: repo, branch: 'agent/dead/old', session_id: 'gone-1', agent: 'claude' });

    at(90 * MINUTE);
    const published = await counted('task_plan_publish', {
      repo_root: repo,
      slug: PLAN_SLUG,
      session_id: 'queen-1',
      agent: 'claude',
      title: PLAN_TITLE,
      problem: 'No widget page exists yet.',
      acceptance_criteria: ['Widget page renders'],
      subtasks: [
        sub(SUBTASKS[0] as string, 'packages/storage/src/widgets.ts', [], 'infra_work'),
        sub(SUBTASKS[1] as string, 'apps/api/src/widgets.ts', [0], 'api_work'),
        sub(SUBTASKS[2] as string, 'apps/web/src/widgets.tsx', [0], 'ui_work'),
        sub(SUBTASKS[3] as string, 'apps/api/test/widgets.test.ts', [1, 2], 'test_work'),
      ],
    });
    const subtasks = published.subtasks as { task_id: number }[];
    const subtaskTask = (i: number) => subtasks[i]?.task_id as number;

    // codex-1 did wave 1 an hour ago; a stale session (30 min) still holds a claim.
    at(60 * MINUTE);
    const claim = (i: number, session_id: string, agent: string) =>
      counted('task_plan_claim_subtask', { plan_slug: PLAN_SLUG, subtask_index: i, session_id, agent });
    await claim(0, 'codex-1', 'codex');
    await counted('task_plan_complete_subtask', {
      plan_slug: PLAN_SLUG,
      subtask_index: 0,
      session_id: 'codex-1',
      summary: 'storage ready',
    });
    at(30 * MINUTE);
    await counted('task_thread', {
      repo_root: repo,
      branch: 'agent/claude/stale',
      session_id: 'stale-1',
      agent: 'claude',
    });
    const staleTask = (await counted('task_list', { session_id: 'stale-1', limit: 1 })) as { tasks: { id: number }[] };
    const staleTaskId = staleTask.tasks[0]?.id as number;
    await counted('task_claim_file', {
      task_id: staleTaskId,
      session_id: 'stale-1',
      file_path: 'apps/web/src/stale.ts',
    });
    await counted('task_hand_off', {
      task_id: staleTaskId,
      session_id: 'stale-1',
      agent: 'claude',
      to_agent: 'any',
      summary: HANDOFF_SUMMARY,
      transferred_files: ['apps/web/src/stale.ts'],
    });

    // cursor-1: idle (8 minutes); codex-1: thinking (3 minutes, no recent file work).
    at(8 * MINUTE);
    await counted('task_thread', {
      repo_root: repo,
      branch: 'agent/cursor/docs',
      session_id: 'cursor-1',
      agent: 'cursor',
    });
    at(3 * MINUTE);
    // claude-1 and codex-1 talk on the shared main thread.
    const main = { repo_root: repo, branch: 'main', title: 'Widget page: coordination' };
    const mainTask = (await counted('task_thread', { ...main, session_id: 'codex-1', agent: 'codex' })).task_id;
    await counted('task_message', {
      task_id: mainTask,
      session_id: 'codex-1',
      agent: 'codex',
      to_agent: 'claude',
      urgency: 'blocking',
      content: BLOCKING_MESSAGE,
    });

    // claude-1: working (claimed wave 2's API and a file a minute ago), asks a question.
    at(1 * MINUTE);
    await counted('task_thread', { ...main, session_id: 'claude-1', agent: 'claude' });
    await claim(1, 'claude-1', 'claude');
    await counted('task_claim_file', { task_id: subtaskTask(1), session_id: 'claude-1', file_path: CLAIMED_FILE });
    await counted('task_message', {
      task_id: mainTask,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      urgency: 'needs_reply',
      content: NEEDS_REPLY_MESSAGE,
    });
  } finally {
    await colony.close();
  }
  return { dir, db, home, repo, receiptsPerHour };
}

/** Calls tools on the seeded store at a given time, without receipts (as a test's own hand). */
export async function withStore<T>(seed: SeededStore, now: number, fn: (call: Call) => Promise<T>): Promise<T> {
  const colony = openColony({
    home: seed.home,
    dbPath: seed.db,
    clock: manualClock(now),
    receipts: false,
    roots: [tmpdir()],
  });
  try {
    return await fn(caller(colony));
  } finally {
    await colony.close();
  }
}
