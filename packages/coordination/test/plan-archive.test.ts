/**
 * Auto-archive through an injected spec lane: skipped while work is outstanding or the
 * plan did not opt in, archived on a clean merge, blocked on conflicts, error when the
 * archive throws. The completion stands in every case, and the outcome is recorded on
 * the plan's spec task.
 */

import { getObservation, listPlans, taskTimeline } from '@swarm/storage';
import { COLONY_TOOLS, ToolRegistry } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BatonService,
  ClaimService,
  createTokenCounter,
  DEFAULT_COORDINATION_SETTINGS,
  LinkService,
  MemoryService,
  MessageService,
  PlanService,
  type PlanSpecLane,
  type SpecArchiveOutcome,
  TaskService,
  threadOnlySpecLane,
} from '../src/index';
import { createFixture, type Fixture } from './_fixture';
import { subtask } from './_plans';

let fx: Fixture;
let repo: string;
let archive: () => SpecArchiveOutcome;
let archiveCalls: Array<Record<string, unknown>>;
let registry: ToolRegistry<unknown>;

beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
  archiveCalls = [];
  const ctx = {
    store: fx.store,
    clock: fx.clock,
    tokens: createTokenCounter(),
    settings: DEFAULT_COORDINATION_SETTINGS,
  };
  const threads = threadOnlySpecLane(ctx);
  const lane: PlanSpecLane = {
    openChange: (request) => ({ ...threads.openChange(request), path: `openspec/changes/${request.slug}/CHANGE.md` }),
    archive: (request) => {
      archiveCalls.push({ ...request });
      return archive();
    },
  };
  const backend = {
    memory: new MemoryService(ctx),
    tasks: new TaskService(ctx),
    messages: new MessageService(ctx),
    links: new LinkService(ctx),
    claims: new ClaimService(ctx),
    batons: new BatonService(ctx),
    plans: new PlanService(ctx, { specs: lane }),
  };
  registry = new ToolRegistry(COLONY_TOOLS, backend, { now: () => fx.clock.now() }) as ToolRegistry<unknown>;
});
afterEach(() => fx.close());

async function call<T = Record<string, unknown>>(tool: string, args: Record<string, unknown>): Promise<T> {
  const outcome = await registry.call(tool, args);
  if (!outcome.ok) throw new Error(outcome.text);
  return outcome.value as T;
}

async function publishTwo(autoArchive: boolean): Promise<{ spec_task_id: number; spec_change_path: string }> {
  return call('task_plan_publish', {
    repo_root: repo,
    slug: 'two-step',
    session_id: 'queen-1',
    agent: 'claude',
    title: 'Two steps',
    problem: 'p',
    acceptance_criteria: ['done'],
    subtasks: [subtask('One', ['one.ts']), subtask('Two', ['two.ts'])],
    auto_archive: autoArchive,
  });
}

async function finish(index: number) {
  await call('task_plan_claim_subtask', {
    plan_slug: 'two-step',
    subtask_index: index,
    session_id: 'codex-1',
    agent: 'codex',
  });
  return call<{ auto_archive: Record<string, unknown> }>('task_plan_complete_subtask', {
    plan_slug: 'two-step',
    subtask_index: index,
    session_id: 'codex-1',
    summary: `step ${index} done`,
  });
}

const specRecords = (specTaskId: number) =>
  taskTimeline(fx.store, specTaskId, 20)
    .map((o) => getObservation(fx.store, o.id)!)
    .filter((o) => o.kind.startsWith('plan-archive'))
    .map((o) => [o.kind, o.metadata]);

describe('auto-archive on the last completion', () => {
  it('reports the spec change path, and skips while sub-tasks are outstanding or the plan did not opt in', async () => {
    archive = () => {
      throw new Error('not expected');
    };
    const published = await publishTwo(false);
    expect(published.spec_change_path).toBe('openspec/changes/two-step/CHANGE.md');
    expect((await finish(0)).auto_archive).toEqual({ status: 'skipped', reason: 'auto_archive is off for this plan' });
    expect((await finish(1)).auto_archive).toEqual({ status: 'skipped', reason: 'auto_archive is off for this plan' });
    expect(archiveCalls).toEqual([]);
  });

  it('archives on a clean merge, records plan-archived and marks the plan archived', async () => {
    archive = () => ({
      status: 'archived',
      archived_path: 'openspec/archive/2026-01-01-two-step',
      merged_root_hash: 'abc123',
      applied: ['T1'],
    });
    const published = await publishTwo(true);
    expect((await finish(0)).auto_archive).toEqual({ status: 'skipped', reason: '1 sub-task(s) still outstanding' });
    const last = await finish(1);
    expect(last.auto_archive).toEqual({
      status: 'archived',
      archived_path: 'openspec/archive/2026-01-01-two-step',
      merged_root_hash: 'abc123',
      applied: ['T1'],
    });
    expect(archiveCalls).toEqual([{ repoRoot: repo, slug: 'two-step', sessionId: 'codex-1', agent: 'codex' }]);
    expect(specRecords(published.spec_task_id)).toEqual([
      [
        'plan-archived',
        {
          plan_slug: 'two-step',
          archived_path: 'openspec/archive/2026-01-01-two-step',
          merged_root_hash: 'abc123',
          applied: ['T1'],
        },
      ],
    ]);
    expect(listPlans(fx.store)[0]).toMatchObject({ status: 'archived', archivedAt: fx.clock.now() });
  });

  it('reports conflicts as blocked and records plan-archive-blocked; the plan stays active', async () => {
    archive = () => ({ status: 'blocked', conflicts: [{ row: 'T1' }], applied: [] });
    const published = await publishTwo(true);
    await finish(0);
    const last = await finish(1);
    expect(last.auto_archive).toMatchObject({ status: 'blocked', conflicts: [{ row: 'T1' }], applied: [] });
    expect(specRecords(published.spec_task_id)).toEqual([
      ['plan-archive-blocked', { plan_slug: 'two-step', conflicts: [{ row: 'T1' }], applied: [] }],
    ]);
    expect(listPlans(fx.store)[0]?.status).toBe('active');
  });

  it('reports a throwing archive as error, records plan-archive-error, and keeps the completion', async () => {
    archive = () => {
      throw new Error('CHANGE.md is missing');
    };
    const published = await publishTwo(true);
    await finish(0);
    const last = await finish(1);
    expect(last).toMatchObject({
      status: 'completed',
      auto_archive: { status: 'error', reason: 'CHANGE.md is missing' },
    });
    expect(specRecords(published.spec_task_id)).toEqual([
      ['plan-archive-error', { plan_slug: 'two-step', error: 'CHANGE.md is missing' }],
    ]);
    const plans = await call<Array<{ subtask_counts: Record<string, number> }>>('task_plan_list', {});
    expect(plans[0]?.subtask_counts.completed).toBe(2);
  });
});

describe('without a spec lane', () => {
  it('publishes the spec thread only and skips the archive for want of a change', async () => {
    const published = await fx.ok<{ spec_change_path: string | null }>('task_plan_publish', {
      repo_root: repo,
      slug: 'two-step',
      session_id: 'queen-1',
      agent: 'claude',
      title: 'Two steps',
      problem: 'p',
      acceptance_criteria: ['done'],
      subtasks: [subtask('One', ['one.ts']), subtask('Two', ['two.ts'])],
      auto_archive: true,
    });
    expect(published.spec_change_path).toBeNull();
    for (const index of [0, 1]) {
      await fx.ok('task_plan_claim_subtask', {
        plan_slug: 'two-step',
        subtask_index: index,
        session_id: 'c-1',
        agent: 'codex',
      });
    }
    await fx.ok('task_plan_complete_subtask', {
      plan_slug: 'two-step',
      subtask_index: 0,
      session_id: 'c-1',
      summary: 'a',
    });
    const last = await fx.ok('task_plan_complete_subtask', {
      plan_slug: 'two-step',
      subtask_index: 1,
      session_id: 'c-1',
      summary: 'b',
    });
    expect(last.auto_archive).toEqual({
      status: 'skipped',
      reason: 'no spec change to archive: the plan was published without the spec lane',
    });
  });
});
