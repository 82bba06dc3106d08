/**
 * task_suggest_approach over a seeded history: two completed plan sub-tasks about stale
 * claims (one with a failed approach, one with an expired handoff), one about dark mode,
 * and the current task. Similar tasks come from task vectors; files, patterns and
 * resolution hints from what those tasks did.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIMILARITY_FLOOR } from '../src/suggest/suggest-service';
import { createFixture, type Fixture } from './_fixture';
import { seedHistory } from './_suggest-history';

let fx: Fixture;
let repo: string;

const QUERY = 'quota relay stale claims cleanup';

beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
});
afterEach(() => fx.close());

const seed = () =>
  seedHistory(
    (tool, args) => fx.ok(tool, args),
    (ms) => fx.clock.advance(ms),
    repo,
  );

// biome-ignore lint/suspicious/noExplicitAny: the payload is asserted field by field
type Suggestion = any;

describe('task_suggest_approach', () => {
  it('says no vectors exist yet before the backfill, with empty lists and a budget', async () => {
    await seed();
    const s = await fx.ok<Suggestion>('task_suggest_approach', { query: QUERY });
    expect(s.similar_tasks).toEqual([]);
    expect(s.first_files_likely_claimed).toEqual([]);
    expect(s.patterns_to_watch).toEqual([]);
    expect(s.resolution_hints).toEqual({
      median_elapsed_minutes: null,
      median_handoff_count: null,
      median_subtask_count: null,
      completed_sample_size: 0,
    });
    expect(s.insufficient_data_reason).toMatch(/No task vectors yet.*colony memory index/);
    expect(s.budget).toMatchObject({ items_available: 0, items_returned: 0, hydrate_with: 'task_timeline' });
  });

  it('finds the similar completed tasks, their first files, warnings and resolution hints', async () => {
    const { a, b, other, current } = await seed();
    await fx.index.backfill();
    const s = await fx.ok<Suggestion>('task_suggest_approach', {
      query: QUERY,
      repo_root: repo,
      current_task_id: current,
      limit: 5,
    });
    expect(s.insufficient_data_reason).toBeNull();
    const ids = s.similar_tasks.map((t: { task_id: number }) => t.task_id);
    expect(ids).toEqual(expect.arrayContaining([a, b]));
    expect(ids).not.toContain(other);
    expect(ids).not.toContain(current);
    for (const t of s.similar_tasks) {
      expect(Object.keys(t).sort()).toEqual(
        ['branch', 'observation_count', 'repo_root', 'similarity', 'status', 'task_id'].sort(),
      );
      expect(t.similarity).toBeGreaterThanOrEqual(SIMILARITY_FLOOR);
      expect(t.repo_root).toBe(repo);
    }
    const similarities = s.similar_tasks.map((t: { similarity: number }) => t.similarity);
    expect(similarities).toEqual([...similarities].sort((x: number, y: number) => y - x));
    expect(s.similar_tasks.find((t: { task_id: number }) => t.task_id === a)).toMatchObject({ status: 'completed' });

    const shared = s.first_files_likely_claimed[0];
    expect(shared).toMatchObject({ file_path: 'packages/storage/src/claims.ts', appears_in_count: 2 });
    expect(shared.confidence).toBeGreaterThan(0);
    expect(shared.confidence).toBeLessThanOrEqual(1);
    expect(s.first_files_likely_claimed.map((f: { file_path: string }) => f.file_path)).not.toContain(
      'apps/viewer/src/theme.css',
    );

    expect(s.patterns_to_watch).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'failed_approach', seen_in_task_id: a }),
        expect.objectContaining({
          kind: 'expired-handoff',
          seen_in_task_id: b,
          description: 'Take over the stale claims cleanup',
        }),
      ]),
    );
    expect(s.resolution_hints).toMatchObject({ median_handoff_count: 0.5, median_subtask_count: 1 });
    expect(s.resolution_hints.completed_sample_size).toBe(2);
    expect(s.resolution_hints.median_elapsed_minutes).toBeGreaterThanOrEqual(32);
    expect(s.budget.items_returned).toBe(
      s.similar_tasks.length + s.first_files_likely_claimed.length + s.patterns_to_watch.length,
    );
    expect(s.budget.estimated_tokens_returned).toBeGreaterThan(0);
  });

  it('cuts every list to limit and says what was collapsed', async () => {
    await seed();
    await fx.index.backfill();
    const s = await fx.ok<Suggestion>('task_suggest_approach', { query: QUERY, limit: 1 });
    expect(s.similar_tasks).toHaveLength(1);
    expect(s.first_files_likely_claimed).toHaveLength(1);
    expect(s.patterns_to_watch).toHaveLength(1);
    expect(s.budget.collapsed_count).toBeGreaterThan(0);
    expect(s.budget.why_collapsed).toMatch(/task_timeline/);
  });

  it('says nothing clears the floor for an unrelated query, and other repositories do not count', async () => {
    await seed();
    await fx.index.backfill();
    const unrelated = await fx.ok<Suggestion>('task_suggest_approach', { query: 'kubernetes helm ingress yaml' });
    expect(unrelated.similar_tasks).toEqual([]);
    expect(unrelated.insufficient_data_reason).toMatch(/below the floor 0.2/);
    const elsewhere = await fx.ok<Suggestion>('task_suggest_approach', { query: QUERY, repo_root: fx.repo('other') });
    expect(elsewhere.similar_tasks).toEqual([]);
    expect(elsewhere.insufficient_data_reason).toMatch(/other repositories/);
  });

  it('refuses an unknown current task and bad input, writing nothing', async () => {
    const before = fx.observations();
    expect((await fx.fail('task_suggest_approach', { query: QUERY, current_task_id: 999 })).code).toBe(
      'TASK_NOT_FOUND',
    );
    expect((await fx.fail('task_suggest_approach', { query: '' })).code).toBe('INVALID_PARAMETERS');
    expect((await fx.fail('task_suggest_approach', { query: QUERY, limit: 21 })).code).toBe('INVALID_PARAMETERS');
    expect((await fx.fail('task_suggest_approach', { query: QUERY, repo_root: 'relative' })).code).toBe(
      'INVALID_PARAMETERS',
    );
    expect(fx.observations()).toBe(before);
  });
});
