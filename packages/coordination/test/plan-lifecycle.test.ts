/**
 * A plan from publish to its last completion: threads per sub-task, waves that unblock
 * as dependencies complete, file claims taken on claim and released on complete, and
 * the audit observations of each step.
 */
import { join } from 'node:path';
import {
  countSubtaskClaims,
  getObservation,
  getTask,
  listParticipants,
  sessionClaims,
  subtaskClaims,
  taskTimeline,
} from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';
import { claimArgs, completeArgs, type PublishResult, publish } from './_plans';

let fx: Fixture;
let repo: string;

beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
});
afterEach(() => fx.close());

interface PlanRow {
  plan_slug: string;
  subtask_counts: Record<string, number>;
  subtasks: Array<{ subtask_index: number; status: string; wave_index: number; claimed_by_agent: string | null }>;
  next_available: Array<{ subtask_index: number }>;
}

const listed = async () => (await fx.ok<PlanRow[]>('task_plan_list', { repo_root: repo }))[0] as PlanRow;
const nextIndices = async () => (await listed()).next_available.map((s) => s.subtask_index);

describe('a published plan', () => {
  let published: PublishResult;
  beforeEach(async () => {
    published = await publish(fx, repo);
  });

  it('opens the spec thread and one thread per sub-task on spec/<slug>/sub-N, joined by nobody but the publisher on spec/', async () => {
    expect(published).toEqual({
      plan_slug: 'add-widget-page',
      spec_task_id: expect.any(Number),
      spec_change_path: join(repo, 'openspec/changes/add-widget-page/CHANGE.md'),
      subtasks: [0, 1, 2, 3].map((i) => ({
        subtask_index: i,
        branch: `spec/add-widget-page/sub-${i}`,
        task_id: expect.any(Number),
        title: expect.any(String),
      })),
    });
    expect(getTask(fx.store, published.spec_task_id)?.branch).toBe('spec/add-widget-page');
    expect(listParticipants(fx.store, [published.spec_task_id]).map((p) => p.sessionId)).toEqual(['queen-1']);
    expect(
      listParticipants(
        fx.store,
        published.subtasks.map((s) => s.task_id),
      ),
    ).toEqual([]);
  });

  it('advertises each sub-task with a plan-subtask observation and the plan with plan-config', async () => {
    const [advertId] = taskTimeline(fx.store, published.subtasks[1]!.task_id, 10).map((o) => o.id);
    expect(getObservation(fx.store, advertId!)).toMatchObject({
      kind: 'plan-subtask',
      metadata: {
        parent_plan_slug: 'add-widget-page',
        parent_plan_title: 'Add widget page',
        parent_spec_task_id: published.spec_task_id,
        subtask_index: 1,
        file_scope: ['apps/api/src/widgets.ts'],
        depends_on: [0],
        capability_hint: 'api_work',
        status: 'blocked',
      },
    });
    const spec = taskTimeline(fx.store, published.spec_task_id, 10).map((o) => getObservation(fx.store, o.id)!);
    expect(spec.map((o) => o.kind)).toContain('spec-change-open');
    const config = spec.filter((o) => o.kind === 'plan-config');
    expect(config.map((o) => [o.metadata?.plan_slug, o.metadata?.auto_archive])).toEqual([['add-widget-page', false]]);
  });

  it('walks three waves end to end with two agents', async () => {
    expect((await listed()).subtasks.map((s) => [s.status, s.wave_index])).toEqual([
      ['available', 0],
      ['blocked', 1],
      ['blocked', 1],
      ['blocked', 2],
    ]);
    expect(await nextIndices()).toEqual([0]);

    fx.clock.advance(1_000);
    const claimed = await fx.ok('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'));
    expect(claimed).toEqual({
      task_id: published.subtasks[0]!.task_id,
      branch: 'spec/add-widget-page/sub-0',
      file_scope: ['packages/storage/src/widgets.ts'],
    });
    const sub0 = published.subtasks[0]!.task_id;
    expect(listParticipants(fx.store, [sub0]).map((p) => [p.sessionId, p.agent])).toEqual([['claude-1', 'claude']]);
    expect(sessionClaims(fx.store, sub0, 'claude-1', ['active']).map((c) => [c.filePath, c.claimedAt])).toEqual([
      ['packages/storage/src/widgets.ts', START + 1_000],
    ]);
    expect(await nextIndices()).toEqual([]);

    const done0 = await fx.ok('task_plan_complete_subtask', completeArgs(0, 'claude-1'));
    expect(done0).toEqual({
      status: 'completed',
      unblocked: [1, 2],
      auto_archive: { status: 'skipped', reason: 'auto_archive is off for this plan' },
    });
    expect(sessionClaims(fx.store, sub0, 'claude-1', ['active'])).toEqual([]);
    expect(sessionClaims(fx.store, sub0, 'claude-1', ['released'])).toHaveLength(1);
    expect(await nextIndices()).toEqual([1, 2]);

    await fx.ok('task_plan_claim_subtask', claimArgs(1, 'claude-1', 'claude'));
    await fx.ok('task_plan_claim_subtask', claimArgs(2, 'codex-1', 'codex'));
    expect((await listed()).subtasks.map((s) => s.claimed_by_agent)).toEqual(['claude', 'claude', 'codex', null]);
    expect((await fx.fail('task_plan_claim_subtask', claimArgs(3, 'codex-1', 'codex'))).code).toBe(
      'PLAN_SUBTASK_DEPS_UNMET',
    );

    expect((await fx.ok('task_plan_complete_subtask', completeArgs(2, 'codex-1'))).unblocked).toEqual([]);
    expect((await fx.ok('task_plan_complete_subtask', completeArgs(1, 'claude-1'))).unblocked).toEqual([3]);
    await fx.ok('task_plan_claim_subtask', claimArgs(3, 'codex-1', 'codex'));
    const last = await fx.ok('task_plan_complete_subtask', completeArgs(3, 'codex-1'));
    expect(last).toMatchObject({ status: 'completed', unblocked: [] });

    const plan = await listed();
    expect(plan.subtask_counts).toEqual({ available: 0, claimed: 0, completed: 4, blocked: 0 });
    expect(plan.next_available).toEqual([]);
    expect(countSubtaskClaims(fx.store, 'completed')).toBe(4);
    expect(countSubtaskClaims(fx.store, 'active')).toBe(0);
  });

  it('records claim and completion as plan-subtask-claim observations with the actor', async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'));
    await fx.ok('task_plan_complete_subtask', { ...completeArgs(0, 'claude-1'), summary: 'storage landed' });
    const sub0 = published.subtasks[0]!.task_id;
    const kinds = taskTimeline(fx.store, sub0, 10)
      .map((o) => getObservation(fx.store, o.id)!)
      .filter((o) => o.kind === 'plan-subtask-claim')
      .reverse();
    expect(kinds.map((o) => [o.metadata?.status, o.metadata?.session_id, o.metadata?.agent])).toEqual([
      ['claimed', 'claude-1', 'claude'],
      ['completed', 'claude-1', 'claude'],
    ]);
    expect(kinds[1]?.content).toBe('storage landed');
    const [claimRow] = subtaskClaims(fx.store, 1);
    expect(claimRow).toMatchObject({ sessionId: 'claude-1', state: 'completed', observationId: kinds[0]?.id });
  });
});
