/**
 * Auto-archive on a plan's last completion: skipped while work is outstanding or the
 * plan did not opt in; otherwise the spec lane archives and reports archived, blocked
 * or error. The completion stands in every case. First through an injected lane, then
 * through the real spec service: CHANGE.md written at publish, archived at the end,
 * and a missing CHANGE.md reported as error with a plan-archive-error record.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { getObservation, listPlans, taskTimeline } from '@swarm/storage';
import { type AutoArchiveOutcome, COLONY_TOOLS, ToolRegistry } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatonService } from '../src/batons/baton-service';
import { ClaimService } from '../src/claims/claim-service';
import { createTokenCounter, DEFAULT_COORDINATION_SETTINGS } from '../src/index';
import { LinkService } from '../src/links/link-service';
import { MemoryService } from '../src/memory/memory-service';
import { MessageService } from '../src/messages/message-service';
import { PlanService } from '../src/plans/plan-service';
import type { PlanSpecLane } from '../src/plans/spec-lane';
import { threadOnlySpecLane } from '../src/plans/spec-lanes';
import { TaskService } from '../src/tasks/task-service';
import { createFixture, type Fixture } from './_fixture';
import { subtask } from './_plans';

let fx: Fixture;
let repo: string;
let archive: () => AutoArchiveOutcome;
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
    openChange: async (request) => ({
      ...(await threads.openChange(request)),
      path: `openspec/changes/${request.slug}/CHANGE.md`,
    }),
    autoArchive: (request) => {
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

/** A plan of two independent sub-tasks. */
const twoSteps = (slug: string, autoArchive: boolean) => ({
  repo_root: repo,
  slug,
  session_id: 'queen-1',
  agent: 'claude',
  title: 'Two steps',
  problem: 'Two things to do.',
  acceptance_criteria: ['both done'],
  subtasks: [subtask('One', ['one.ts']), subtask('Two', ['two.ts'])],
  auto_archive: autoArchive,
});

const publishTwo = (autoArchive: boolean) =>
  call<{ spec_task_id: number; spec_change_path: string }>('task_plan_publish', twoSteps('two-step', autoArchive));

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
    .map((o) => o.kind);

describe('auto-archive through an injected lane', () => {
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

  it('archives once the last sub-task completes, as the completing session, and marks the plan archived', async () => {
    const archived: AutoArchiveOutcome = {
      status: 'archived',
      archived_path: 'openspec/archive/2026-01-01-two-step',
      merged_root_hash: 'abc123',
      applied: 1,
    };
    archive = () => archived;
    await publishTwo(true);
    expect((await finish(0)).auto_archive).toEqual({ status: 'skipped', reason: '1 sub-task(s) still outstanding' });
    expect(archiveCalls).toEqual([]);
    expect((await finish(1)).auto_archive).toEqual(archived);
    expect(archiveCalls).toEqual([{ repoRoot: repo, slug: 'two-step', sessionId: 'codex-1', agent: 'codex' }]);
    expect(listPlans(fx.store)[0]).toMatchObject({ status: 'archived', archivedAt: fx.clock.now() });
  });

  it('passes blocked through and leaves the plan active', async () => {
    const conflict = { line: 3, ids: ['T.1'], base: ['a'], change: ['b'], root: ['c'] };
    archive = () => ({ status: 'blocked', reason: 'conflicts', conflicts: [conflict] });
    await publishTwo(true);
    await finish(0);
    expect((await finish(1)).auto_archive).toEqual({ status: 'blocked', reason: 'conflicts', conflicts: [conflict] });
    expect(listPlans(fx.store)[0]?.status).toBe('active');
  });

  it('reports a lane that throws as error, and keeps the completion', async () => {
    archive = () => {
      throw new Error('disk full');
    };
    await publishTwo(true);
    await finish(0);
    const last = await finish(1);
    expect(last).toMatchObject({ status: 'completed', auto_archive: { status: 'error', reason: 'disk full' } });
    const plans = await call<Array<{ subtask_counts: Record<string, number>; status: string }>>('task_plan_list', {});
    expect(plans[0]).toMatchObject({ status: 'active', subtask_counts: { completed: 2 } });
  });
});

describe('auto-archive through the spec service', () => {
  const publishReal = (slug: string) =>
    fx.ok<{ spec_task_id: number; spec_change_path: string }>('task_plan_publish', twoSteps(slug, true));
  const finishReal = async (slug: string, index: number) => {
    await fx.ok('task_plan_claim_subtask', {
      plan_slug: slug,
      subtask_index: index,
      session_id: 'c-1',
      agent: 'codex',
    });
    return fx.ok<{ auto_archive: AutoArchiveOutcome }>('task_plan_complete_subtask', {
      plan_slug: slug,
      subtask_index: index,
      session_id: 'c-1',
      summary: `${index} done`,
    });
  };

  it('writes CHANGE.md at publish and archives the change after the last completion', async () => {
    const published = await publishReal('real-archive');
    expect(published.spec_change_path).toBe(join(repo, 'openspec/changes/real-archive/CHANGE.md'));
    expect(existsSync(published.spec_change_path)).toBe(true);
    await finishReal('real-archive', 0);
    const last = await finishReal('real-archive', 1);
    expect(last.auto_archive).toMatchObject({
      status: 'archived',
      archived_path: expect.stringContaining('real-archive'),
    });
    expect(existsSync(published.spec_change_path)).toBe(false);
    expect(existsSync(last.auto_archive.archived_path!)).toBe(true);
    expect(specRecords(published.spec_task_id)).toEqual(['plan-archived']);
    expect(listPlans(fx.store)[0]?.status).toBe('archived');
  });

  it('reports a missing CHANGE.md as error with a plan-archive-error record; the completion stands', async () => {
    const published = await publishReal('lost-change');
    await finishReal('lost-change', 0);
    rmSync(join(repo, 'openspec/changes/lost-change'), { recursive: true, force: true });
    const last = await finishReal('lost-change', 1);
    expect(last).toMatchObject({ status: 'completed', auto_archive: { status: 'error' } });
    expect(specRecords(published.spec_task_id)).toEqual(['plan-archive-error']);
    const [plan] = await fx.ok<Array<{ subtask_counts: Record<string, number> }>>('task_plan_list', {});
    expect(plan?.subtask_counts.completed).toBe(2);
  });

  it('refuses to publish over a spec change that is already open, writing nothing', async () => {
    await fx.ok('spec_change_open', {
      repo_root: repo,
      slug: 'taken-change',
      session_id: 'spec-1',
      agent: 'claude',
      proposal: 'Someone else is on it.',
    });
    const before = fx.observations();
    const error = await fx.fail('task_plan_publish', twoSteps('taken-change', false));
    expect(error.code).toBe('SPEC_CHANGE_EXISTS');
    expect(fx.observations()).toBe(before);
  });
});

describe('without a spec lane', () => {
  it('publishes the spec thread only and skips the archive for want of a change', async () => {
    const ctx = {
      store: fx.store,
      clock: fx.clock,
      tokens: createTokenCounter(),
      settings: DEFAULT_COORDINATION_SETTINGS,
    };
    const plans = new PlanService(ctx);
    const published = await plans.publish(twoSteps('thread-only', true));
    expect(published.spec_change_path).toBeNull();
    for (const index of [0, 1]) {
      await plans.claimSubtask({ plan_slug: 'thread-only', subtask_index: index, session_id: 'c-1', agent: 'codex' });
    }
    await plans.completeSubtask({ plan_slug: 'thread-only', subtask_index: 0, session_id: 'c-1', summary: 'a' });
    const last = await plans.completeSubtask({
      plan_slug: 'thread-only',
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
