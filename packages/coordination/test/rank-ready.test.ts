/**
 * rankReady: the ready-work order for one agent, as a pure function of its profile,
 * its own claims and plans, others' live claims and urgent threads.
 */
import { describe, expect, it } from 'vitest';
import { fileKey, type RankInput, type ReadyCandidate, rankReady, type ScopeConflict } from '../src/ready/rank-ready';

const REPO = '/abs/repo';

function candidate(index: number, extra: Partial<ReadyCandidate> = {}): ReadyCandidate {
  return {
    plan_slug: 'plan-a',
    repo_root: REPO,
    subtask_index: index,
    task_id: 100 + index,
    title: `sub ${index}`,
    wave_index: 0,
    wave_name: 'Wave 1',
    file_scope: [`src/f${index}.ts`],
    capability_hint: null,
    current: false,
    blocked_downstream_count: 0,
    ...extra,
  };
}

function input(candidates: ReadyCandidate[], extra: Partial<RankInput> = {}): RankInput {
  return {
    agent: 'codex',
    weights: { ui_work: 0.5, api_work: 0.5 },
    candidates,
    ownFiles: new Set(),
    ownPlans: new Set(),
    conflicts: new Map(),
    urgentTaskIds: new Set(),
    peers: [],
    ...extra,
  };
}

const order = (ranked: ReturnType<typeof rankReady>) => ranked.map((r) => r.subtask_index);

describe('rankReady', () => {
  it('ranks by capability fit from the profile', () => {
    const ranked = rankReady(
      input([candidate(0, { capability_hint: 'ui_work' }), candidate(1, { capability_hint: 'api_work' })], {
        weights: { ui_work: 0.2, api_work: 0.9 },
      }),
    );
    expect(order(ranked)).toEqual([1, 0]);
    expect(ranked[0]).toMatchObject({ fit_score: 0.9, reason: 'ready_high_score' });
    expect(ranked[0]?.reasoning).toContain('fit 0.9');
    expect(ranked[1]?.fit_score).toBe(0.2);
  });

  it('reads a missing dimension, or no hint, as 0.5', () => {
    const ranked = rankReady(input([candidate(0, { capability_hint: 'db_work' }), candidate(1)]));
    expect(ranked.map((r) => r.fit_score)).toEqual([0.5, 0.5]);
  });

  it('prefers continuity: files the agent claims, then plans it works in', () => {
    const ranked = rankReady(
      input(
        [
          candidate(0, { plan_slug: 'plan-b' }),
          candidate(1, { plan_slug: 'plan-c' }),
          candidate(2, { plan_slug: 'plan-d' }),
        ],
        { ownFiles: new Set([fileKey(REPO, 'src/f2.ts')]), ownPlans: new Set(['plan-c']) },
      ),
    );
    expect(order(ranked)).toEqual([2, 1, 0]);
    expect(ranked[0]?.reasoning).toContain('touches files you claim');
    expect(ranked[1]?.reasoning).toContain('same plan as your work');
  });

  it('prefers sub-tasks that unblock more downstream work, and earlier waves', () => {
    const ranked = rankReady(
      input([
        candidate(0, { wave_index: 1 }),
        candidate(1, { blocked_downstream_count: 3 }),
        candidate(2, { wave_index: 0 }),
      ]),
    );
    expect(order(ranked)).toEqual([1, 2, 0]);
    expect(ranked[0]?.reasoning).toContain('unblocks 3');
  });

  it('lowers the score by the share of the scope others hold live claims on', () => {
    const conflict: ScopeConflict = { file_path: 'src/f0.ts', session_id: 's-other', agent: 'claude' };
    const ranked = rankReady(
      input([candidate(0, { file_scope: ['src/f0.ts', 'src/g0.ts'] }), candidate(1)], {
        conflicts: new Map([[fileKey(REPO, 'src/f0.ts'), [conflict]]]),
      }),
    );
    expect(order(ranked)).toEqual([1, 0]);
    expect(ranked[1]?.conflicts).toEqual([conflict]);
    expect(ranked[1]?.reasoning).toContain('1 file(s) claimed by others');
    expect((ranked[0]?.priority ?? 0) - (ranked[1]?.priority ?? 0)).toBeCloseTo(0.25);
  });

  it('does not count claims in another repository as conflicts', () => {
    const ranked = rankReady(
      input([candidate(0)], {
        conflicts: new Map([
          [fileKey('/abs/other', 'src/f0.ts'), [{ file_path: 'src/f0.ts', session_id: 's', agent: 'x' }]],
        ]),
      }),
    );
    expect(ranked[0]?.conflicts).toEqual([]);
  });

  it('puts the agent’s own claimed sub-task first, and urgent threads above it', () => {
    const ranked = rankReady(
      input(
        [
          candidate(0, { capability_hint: 'api_work' }),
          candidate(1, { current: true }),
          candidate(2, { task_id: 555 }),
        ],
        { weights: { api_work: 1 }, urgentTaskIds: new Set([555]) },
      ),
    );
    expect(ranked.map((r) => [r.subtask_index, r.reason])).toEqual([
      [2, 'urgent_override'],
      [1, 'continue_current_task'],
      [0, 'ready_high_score'],
    ]);
  });

  it('routes a sub-task to a peer of another family that fits it clearly better', () => {
    const ranked = rankReady(
      input([candidate(0, { capability_hint: 'ui_work' }), candidate(1, { capability_hint: 'api_work' })], {
        weights: { ui_work: 0.5, api_work: 0.6 },
        peers: [
          { agent: 'claude', weights: { ui_work: 0.9, api_work: 0.7 } },
          { agent: 'codex-2', weights: { ui_work: 1, api_work: 1 } },
        ],
      }),
    );
    const byIndex = new Map(ranked.map((r) => [r.subtask_index, r]));
    expect(byIndex.get(0)).toMatchObject({ assigned_agent: 'claude' });
    expect(byIndex.get(0)?.routing_reason).toBe('claude fits ui_work at 0.9 vs your 0.5');
    // 0.7 is within the routing margin of 0.6; the same family never takes work from the caller.
    expect(byIndex.get(1)).toMatchObject({ assigned_agent: 'codex' });
  });

  it('is deterministic: ties order by plan slug then index', () => {
    const a = [candidate(1, { plan_slug: 'b' }), candidate(0, { plan_slug: 'b' }), candidate(5, { plan_slug: 'a' })];
    expect(rankReady(input(a)).map((r) => `${r.plan_slug}/${r.subtask_index}`)).toEqual(['a/5', 'b/0', 'b/1']);
    expect(rankReady(input([...a].reverse()))).toEqual(rankReady(input(a)));
  });
});
