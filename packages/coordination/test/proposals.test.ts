/**
 * Proposals: task_propose, task_reinforce (kinds, same-session collapse, source
 * diversity, promotion into a task thread) and task_foraging_report (evaporation below
 * the noise floor), on a manual clock.
 */
import { upsertSession } from '@swarm/storage';
import { PROMOTION_THRESHOLD, PROPOSAL_HALF_LIFE_HOURS, PROPOSAL_NOISE_FLOOR } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';

const HOUR = 3_600_000;
const HALF_LIFE = PROPOSAL_HALF_LIFE_HOURS * HOUR;

let f: Fixture;
let repo: string;

beforeEach(async () => {
  f = createFixture();
  repo = f.repo('repo');
  for (const [session_id, agent] of [
    ['claude-a', 'claude'],
    ['claude-b', 'claude-code'],
    ['codex-c', 'codex'],
    ['codex-d', 'codex'],
  ]) {
    await f.ok('task_thread', { repo_root: repo, branch: 'main', session_id, agent });
  }
});
afterEach(() => f.close());

interface Proposed {
  proposal_id: number;
  strength: number;
  promotion_threshold: number;
}
interface Reinforced {
  proposal_id: number;
  strength: number;
  promoted: boolean;
  task_id: number | null;
}

const propose = (extra: Record<string, unknown> = {}) =>
  f.ok<Proposed>('task_propose', {
    repo_root: repo,
    branch: 'main',
    summary: 'Extract a shared ExamplesIndex helper',
    rationale: 'Three call sites reimplement the walk.',
    touches_files: ['./apps/cli/src/foraging.ts', `${repo}/apps/mcp/src/foraging.ts`],
    session_id: 'claude-a',
    ...extra,
  });
const reinforce = (proposal_id: number, session_id: string, kind: string) =>
  f.ok<Reinforced>('task_reinforce', { proposal_id, session_id, kind });
const report = () =>
  f.ok<{ pending: Array<Record<string, unknown>>; promoted: Array<Record<string, unknown>> }>('task_foraging_report', {
    repo_root: repo,
    branch: 'main',
  });

describe('task_propose', () => {
  it('stores a pending proposal with the proposer as its first evidence', async () => {
    const before = f.observations();
    expect(await propose()).toEqual({ proposal_id: 1, strength: 1, promotion_threshold: PROMOTION_THRESHOLD });
    expect(f.observations()).toBe(before + 1);
    expect((await report()).pending).toEqual([
      {
        id: 1,
        strength: 1,
        summary: 'Extract a shared ExamplesIndex helper',
        reinforcement_count: 1,
        touches_files: ['apps/cli/src/foraging.ts', 'apps/mcp/src/foraging.ts'],
        created_at: START,
        last_reinforced_at: START,
      },
    ]);
  });

  it('reinforces a pending proposal with the same summary instead of duplicating it', async () => {
    const first = await propose();
    const again = await propose({ session_id: 'codex-c', summary: '  extract a shared   examplesindex helper ' });
    expect(again.proposal_id).toBe(first.proposal_id);
    expect(again.strength).toBe(2.5);
    expect((await report()).pending).toHaveLength(0);
  });

  it('refuses unknown sessions and paths outside the repository, writing nothing', async () => {
    const before = f.observations();
    expect(
      (await f.fail('task_propose', { ...(await args()), session_id: 'ghost', touches_files: ['/elsewhere/x.ts'] }))
        .code,
    ).toBe('PATH_OUTSIDE_REPO');
    expect((await f.fail('task_propose', { ...(await args()), touches_files: ['../x.ts'] })).code).toBe(
      'PATH_OUTSIDE_REPO',
    );
    expect((await f.fail('task_propose', { ...(await args()), summary: 'x'.repeat(201) })).code).toBe(
      'INVALID_PARAMETERS',
    );
    expect(f.observations()).toBe(before);
    expect((await report()).pending).toEqual([]);
  });

  it('accepts the suggested_args of a task_post recommendation as they are', async () => {
    const thread = await f.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch: 'main',
      session_id: 'claude-a',
      agent: 'claude',
    });
    const post = await f.ok<{ recommendation: { tool: string; suggested_args: Record<string, unknown> } }>(
      'task_post',
      {
        task_id: thread.task_id,
        session_id: 'claude-a',
        kind: 'note',
        content: `Follow-up later: ${'dedupe '.repeat(60)}`,
      },
    );
    expect(post.recommendation.tool).toBe('task_propose');
    expect((await f.ok<Proposed>('task_propose', post.recommendation.suggested_args)).strength).toBe(1);
  });
});

async function args() {
  return {
    repo_root: repo,
    branch: 'main',
    summary: 'A',
    rationale: 'B',
    session_id: 'claude-a',
  };
}

describe('task_reinforce', () => {
  it('collapses repeats of one session to its strongest evidence', async () => {
    const { proposal_id } = await propose();
    expect((await reinforce(proposal_id, 'claude-a', 'explicit')).strength).toBe(1);
    expect((await reinforce(proposal_id, 'claude-a', 'rediscovered')).strength).toBe(1.5);
    expect((await reinforce(proposal_id, 'claude-a', 'rediscovered')).strength).toBe(1.5);
    expect((await report()).pending[0]?.reinforcement_count).toBe(1);
  });

  it('weighs another session of a seen agent type at half, a new agent type in full', async () => {
    const { proposal_id } = await propose();
    expect((await reinforce(proposal_id, 'claude-b', 'explicit')).strength).toBe(1.5);
    expect((await reinforce(proposal_id, 'claude-b', 'explicit')).strength).toBe(1.5);
    upsertSession(f.store, { id: 'anon-1' }, START);
    expect((await reinforce(proposal_id, 'anon-1', 'adjacent')).strength).toBe(1.65);
    const promoted = await reinforce(proposal_id, 'codex-c', 'adjacent');
    expect(promoted).toMatchObject({ strength: 1.95, promoted: false, task_id: null });
    expect((await reinforce(proposal_id, 'codex-d', 'adjacent')).strength).toBe(2.1);
  });

  it('promotes when evidence crosses the threshold, opening a task thread in the same call', async () => {
    const { proposal_id } = await propose();
    const before = f.observations();
    const result = await reinforce(proposal_id, 'codex-c', 'rediscovered');
    expect(result).toMatchObject({ proposal_id, strength: 2.5, promoted: true });
    expect(result.task_id).toEqual(expect.any(Number));
    expect(f.observations()).toBe(before + 2);
    const tasks = await f.ok<{ tasks: Array<{ id: number; branch: string; title: string }> }>('task_list', {
      repo_root: repo,
      branch: `proposal/${proposal_id}`,
    });
    expect(tasks.tasks).toEqual([
      expect.objectContaining({ id: result.task_id, title: 'Extract a shared ExamplesIndex helper' }),
    ]);
    const timeline = await f.ok<Array<{ kind: string }>>('task_timeline', { task_id: result.task_id });
    expect(timeline.map((t) => t.kind)).toEqual(['proposal-promoted']);
    const later = await reinforce(proposal_id, 'claude-b', 'explicit');
    expect(later).toMatchObject({ promoted: true, task_id: result.task_id });
    const listed = await report();
    expect(listed.pending).toEqual([]);
    expect(listed.promoted).toEqual([
      {
        id: proposal_id,
        task_id: result.task_id,
        branch: `proposal/${proposal_id}`,
        summary: 'Extract a shared ExamplesIndex helper',
        promoted_at: START,
      },
    ]);
  });

  it('promotes at exactly the threshold, but not once the first evidence has evaporated a little', async () => {
    const now = await propose();
    expect((await reinforce(now.proposal_id, 'codex-c', 'explicit')).promoted).toBe(true);
    const old = await propose({ summary: 'Another idea' });
    f.clock.advance(24 * HOUR);
    const late = await reinforce(old.proposal_id, 'codex-c', 'explicit');
    expect(late).toMatchObject({ strength: 1.906, promoted: false, task_id: null });
  });

  it('refuses an unknown proposal and an unknown session', async () => {
    const { proposal_id } = await propose();
    const before = f.observations();
    expect((await f.fail('task_reinforce', { proposal_id: 999, session_id: 'claude-a', kind: 'explicit' })).code).toBe(
      'PROPOSAL_NOT_FOUND',
    );
    expect((await f.fail('task_reinforce', { proposal_id: 999_999, session_id: 'ghost', kind: 'explicit' })).code).toBe(
      'PROPOSAL_NOT_FOUND',
    );
    expect((await f.fail('task_reinforce', { proposal_id, session_id: 'claude-a', kind: 'loud' })).code).toBe(
      'INVALID_PARAMETERS',
    );
    expect(f.observations()).toBe(before);
  });
});

describe('task_foraging_report', () => {
  it('lets pending proposals evaporate below the noise floor', async () => {
    await propose();
    const strong = await propose({ summary: 'Cache the index' });
    await reinforce(strong.proposal_id, 'claude-b', 'explicit');
    expect((await report()).pending.map((p) => [p.id, p.strength])).toEqual([
      [strong.proposal_id, 1.5],
      [1, 1],
    ]);
    f.clock.advance(2 * HALF_LIFE);
    expect((await report()).pending.map((p) => [p.id, p.strength])).toEqual([
      [strong.proposal_id, 0.375],
      [1, PROPOSAL_NOISE_FLOOR],
    ]);
    f.clock.advance(HOUR);
    expect((await report()).pending.map((p) => p.id)).toEqual([strong.proposal_id]);
    f.clock.advance(HALF_LIFE);
    expect((await report()).pending).toEqual([]);
  });

  it('keeps promoted proposals for one half-life, and scopes by repo_root and branch', async () => {
    const { proposal_id } = await propose();
    await reinforce(proposal_id, 'codex-c', 'rediscovered');
    await propose({ branch: 'dev', summary: 'Elsewhere' });
    expect((await report()).promoted.map((p) => p.id)).toEqual([proposal_id]);
    f.clock.advance(HALF_LIFE + 1);
    expect((await report()).promoted).toEqual([]);
  });
});
