/**
 * Plans from scripts through @swarm/core: `colony.plans.publish` (and its dry run),
 * and `colony.plans.list`. Calls go through the
 * registry, so refusals throw ColonyError with the tool's code and details, and each
 * call leaves a receipt.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Colony, ColonyError, manualClock, openColony, type PlanDocument } from '../src/index';

let dir: string;
let repo: string;
let colony: Colony;

const plan = (extra: Partial<PlanDocument> = {}): PlanDocument => ({
  repo_root: repo,
  slug: 'script-plan',
  title: 'From a script',
  problem: 'CI wants to hand out work.',
  acceptance_criteria: ['two lanes done'],
  subtasks: [
    { title: 'Lane A', description: 'a', file_scope: ['src/a.ts'], capability_hint: 'api_work' },
    { title: 'Lane B', description: 'b', file_scope: ['src/b.ts'], depends_on: [0] },
  ],
  ...extra,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'colony-core-plans-'));
  repo = join(dir, 'repo');
  mkdirSync(repo);
  colony = openColony({
    home: dir,
    dbPath: join(dir, 'colony.db'),
    clock: manualClock(Date.UTC(2026, 4, 1)),
    roots: [dir],
  });
});
afterEach(() => colony.close());

describe('colony.plans', () => {
  it('publishes as the script session by default, and lists the plan', async () => {
    const published = await colony.plans.publish(plan());
    expect(published).toMatchObject({
      plan_slug: 'script-plan',
      spec_change_path: join(repo, 'openspec/changes/script-plan/CHANGE.md'),
      subtasks: [{ branch: 'spec/script-plan/sub-0' }, { branch: 'spec/script-plan/sub-1' }],
    });
    const [listed] = await colony.plans.list({ repo_root: repo });
    expect(listed).toMatchObject({
      plan_slug: 'script-plan',
      created_at: Date.UTC(2026, 4, 1),
      next_available: [{ subtask_index: 0, capability_hint: 'api_work' }],
    });
    const thread = await colony.handleToolCall('task_list', { repo_root: repo, branch: 'spec/script-plan' });
    expect(thread.ok && (thread.value as { tasks: Array<{ participants: unknown[] }> }).tasks[0]?.participants).toEqual(
      [{ session_id: 'colony-script', agent: 'script' }],
    );
  });

  it('takes repo_root, session and agent from the options when the plan names none', async () => {
    const { repo_root: _r, ...rest } = plan();
    await colony.plans.publish(rest, { repoRoot: repo, sessionId: 'ci-7', agent: 'ci' });
    const [listed] = await colony.plans.list();
    expect(listed?.repo_root).toBe(repo);
  });

  it('dry-runs: waves, branches and the refusal it would get, writing nothing', async () => {
    const ok = await colony.plans.publish(plan(), { dryRun: true });
    expect(ok).toMatchObject({
      dry_run: true,
      plan_slug: 'script-plan',
      repo_root: repo,
      refusal: null,
      subtasks: [
        { subtask_index: 0, branch: 'spec/script-plan/sub-0', title: 'Lane A', wave_index: 0 },
        { subtask_index: 1, branch: 'spec/script-plan/sub-1', title: 'Lane B', wave_index: 1 },
      ],
      validation: { partition_clean: true },
    });
    const clash = plan({
      subtasks: [
        { title: 'A', description: 'a', file_scope: ['x.ts'] },
        { title: 'B', description: 'b', file_scope: ['y.ts'], depends_on: [0] },
        { title: 'C', description: 'c', file_scope: ['y.ts'] },
      ],
    });
    expect((await colony.plans.publish(clash, { dryRun: true })).refusal).toBe('PLAN_SCOPE_OVERLAP');
    const forward = plan({
      subtasks: [
        { title: 'A', description: 'a', file_scope: ['x.ts'], depends_on: [1] },
        { title: 'B', description: 'b', file_scope: ['y.ts'] },
      ],
    });
    const refused = await colony.plans.publish(forward, { dryRun: true });
    expect(refused).toMatchObject({
      refusal: 'PLAN_INVALID_WAVE_DEPENDENCY',
      subtasks: [{ wave_index: null }, { wave_index: null }],
    });
    expect(await colony.plans.list()).toEqual([]);
  });

  it('throws ColonyError with the code and details of a refusal', async () => {
    const forward = plan({
      subtasks: [
        { title: 'A', description: 'a', file_scope: ['x.ts'], depends_on: [1] },
        { title: 'B', description: 'b', file_scope: ['y.ts'] },
      ],
    });
    const error = await colony.plans.publish(forward).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ColonyError);
    expect(error).toMatchObject({ code: 'PLAN_INVALID_WAVE_DEPENDENCY', details: { errors: [expect.any(Object)] } });
    await expect(colony.plans.publish(plan({ slug: 'Not A Slug' }))).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
    });
  });

  it('returns the first result for a repeated idempotency key', async () => {
    const first = await colony.plans.publish(plan(), { idempotencyKey: 'ci-run-42' });
    expect(await colony.plans.publish(plan(), { idempotencyKey: 'ci-run-42' })).toEqual(first);
    await expect(colony.plans.publish(plan())).rejects.toMatchObject({ code: 'PLAN_ALREADY_PUBLISHED' });
  });
});
