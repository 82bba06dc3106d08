/**
 * task_drift_check: a session's active claims on a task against its `edit`
 * observations within the window, in the contract's exact shape.
 */
import { getTask } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordEdit } from '../src/edits';
import { createTokenCounter, DEFAULT_COORDINATION_SETTINGS } from '../src/index';
import { createFixture, type Fixture, START } from './_fixture';

const MINUTE = 60_000;

let fx: Fixture;
let repo: string;
let taskId: number;

const edit = async (sessionId: string, filePath: string, task = taskId) => {
  const ctx = {
    store: fx.store,
    clock: fx.clock,
    tokens: createTokenCounter(),
    settings: DEFAULT_COORDINATION_SETTINGS,
  };
  await fx.store.write(() => recordEdit(ctx, { sessionId, task: getTask(fx.store, task)!, tool: 'Edit', filePath }));
};
const claim = (session_id: string, file_path: string) =>
  fx.ok('task_claim_file', { task_id: taskId, session_id, file_path });
const drift = (args: Record<string, unknown> = {}) =>
  fx.ok<Record<string, unknown>>('task_drift_check', { session_id: 'sess_abc', task_id: taskId, ...args });

beforeEach(async () => {
  fx = createFixture();
  repo = fx.repo('repo');
  taskId = (
    await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch: 'main',
      session_id: 'sess_abc',
      agent: 'claude',
    })
  ).task_id;
  await fx.ok('task_thread', { repo_root: repo, branch: 'main', session_id: 'codex-1', agent: 'codex' });
});
afterEach(() => fx.close());

describe('task_drift_check', () => {
  it('answers the contract example exactly', async () => {
    await claim('sess_abc', 'src/keeper.ts');
    await claim('sess_abc', 'src/idle-claim.ts');
    await edit('sess_abc', 'src/keeper.ts');
    await edit('sess_abc', `${repo}/src/uncovered.ts`);
    fx.clock.advance(MINUTE);
    expect(await drift({ window_minutes: 60 })).toEqual({
      generated_at: START + MINUTE,
      task_id: taskId,
      session_id: 'sess_abc',
      window_minutes: 60,
      claimed_files: ['src/idle-claim.ts', 'src/keeper.ts'],
      edited_files: ['src/keeper.ts', 'src/uncovered.ts'],
      edits_without_claim: ['src/uncovered.ts'],
      claims_without_edits: ['src/idle-claim.ts'],
      drift_score: 0.5,
      recommendation:
        'Claim 1 file(s) edited without an active claim: src/uncovered.ts. Release or revisit 1 claim(s) with no recent edits: src/idle-claim.ts.',
      next_tool: 'task_claim_file',
      next_args: [{ session_id: 'sess_abc', task_id: taskId, file_path: 'src/uncovered.ts' }],
      budget: {
        items_available: 3,
        items_returned: 3,
        collapsed_count: 0,
        estimated_tokens_returned: expect.any(Number),
        hydrate_with: 'task_timeline',
        why_collapsed: null,
      },
    });
  });

  it('reports no drift, with null next_tool and next_args, when every edit is claimed', async () => {
    await claim('sess_abc', 'src/a.ts');
    await edit('sess_abc', 'src/a.ts');
    const result = await drift();
    expect(result).toMatchObject({
      window_minutes: 60,
      edits_without_claim: [],
      claims_without_edits: [],
      drift_score: 0,
      recommendation: 'No drift: every edit of the last 60 minutes is covered by an active claim.',
      next_tool: null,
      next_args: null,
    });
  });

  it('reads edits only inside the window (default 60 minutes), and only the session’s own', async () => {
    await edit('sess_abc', 'src/old.ts');
    fx.clock.advance(61 * MINUTE);
    await edit('sess_abc', 'src/new.ts');
    await edit('codex-1', 'src/theirs.ts');
    expect((await drift()).edited_files).toEqual(['src/new.ts']);
    expect((await drift({ window_minutes: 62 })).edited_files).toEqual(['src/new.ts', 'src/old.ts']);
    expect((await drift()).drift_score).toBe(1);
  });

  it('counts only claims in state active: a claim waiting on a handoff does not cover an edit', async () => {
    await claim('sess_abc', 'src/a.ts');
    await fx.ok('task_hand_off', {
      task_id: taskId,
      session_id: 'sess_abc',
      to_agent: 'codex',
      summary: 'take a.ts',
      transferred_files: ['src/a.ts'],
    });
    await edit('sess_abc', 'src/a.ts');
    expect(await drift()).toMatchObject({ claimed_files: [], edits_without_claim: ['src/a.ts'], drift_score: 1 });
  });

  it('refuses bad input with documented codes', async () => {
    expect((await fx.fail('task_drift_check', { session_id: 'sess_abc', task_id: 999 })).code).toBe('TASK_NOT_FOUND');
    expect(await fx.ok('task_drift_check', { session_id: 'ghost', task_id: taskId })).toMatchObject({
      claimed_files: [],
    });
    const tooWide = await fx.fail('task_drift_check', {
      session_id: 'sess_abc',
      task_id: taskId,
      window_minutes: 1441,
    });
    expect(tooWide.code).toBe('INVALID_PARAMETERS');
  });
});
