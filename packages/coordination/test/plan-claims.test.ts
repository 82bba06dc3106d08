/**
 * task_plan_claim_subtask and task_plan_complete_subtask: who may claim and complete
 * what, the hints a refusal carries, file claims taken and released with the
 * sub-task, and refusals that write nothing. Plus task_plan_status_for_spec_row.
 */
import {
  countClaims,
  countObservations,
  countSubtaskClaims,
  countSubtasks,
  getSubtask,
  releaseSubtaskClaim,
  sessionClaims,
} from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';
import { claimArgs, completeArgs, type PublishResult, publish, subtask, threeWaveSubtasks } from './_plans';

let fx: Fixture;
let repo: string;
let plan: PublishResult;

beforeEach(async () => {
  fx = createFixture();
  repo = fx.repo('repo');
  plan = await publish(fx, repo);
});
afterEach(() => fx.close());

const counts = () => ({
  observations: countObservations(fx.store),
  subtasks: (['available', 'claimed', 'completed', 'blocked'] as const).map((s) => countSubtasks(fx.store, s)),
  subtaskClaims: countSubtaskClaims(fx.store),
  fileClaims: countClaims(fx.store),
});

async function refused(tool: string, args: Record<string, unknown>, code: string) {
  const before = counts();
  const error = await fx.fail(tool, args);
  expect(error.code, error.error).toBe(code);
  expect(counts()).toEqual(before);
  return error;
}

describe('task_plan_claim_subtask', () => {
  it('refuses unknown plans and indices', async () => {
    await refused(
      'task_plan_claim_subtask',
      claimArgs(0, 'codex-1', 'codex', 'no-such-plan'),
      'PLAN_SUBTASK_NOT_FOUND',
    );
    const missing = await refused(
      'task_plan_claim_subtask',
      claimArgs(4, 'codex-1', 'codex'),
      'PLAN_SUBTASK_NOT_FOUND',
    );
    expect(missing.error).toContain('has no sub-task 4 (it has 0..3)');
    await refused(
      'task_plan_claim_subtask',
      { ...claimArgs(0, 'codex-1', 'codex'), repo_root: fx.repo('elsewhere') },
      'PLAN_SUBTASK_NOT_FOUND',
    );
  });

  it('refuses a blocked sub-task with the dependencies still unmet', async () => {
    const error = await refused('task_plan_claim_subtask', claimArgs(3, 'codex-1', 'codex'), 'PLAN_SUBTASK_DEPS_UNMET');
    expect(error).toMatchObject({ plan_slug: 'add-widget-page', subtask_index: 3, unmet: [1, 2] });
    expect(error.next_available).toEqual([
      {
        subtask_index: 0,
        title: 'Prepare storage',
        wave_index: 0,
        capability_hint: 'infra_work',
        file_scope: ['packages/storage/src/widgets.ts'],
      },
    ]);
  });

  it('refuses a claimed or completed sub-task with its status, holder and what is free instead', async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'));
    const taken = await refused(
      'task_plan_claim_subtask',
      claimArgs(0, 'codex-1', 'codex'),
      'PLAN_SUBTASK_NOT_AVAILABLE',
    );
    expect(taken).toMatchObject({ status: 'claimed', claimed_by_agent: 'claude', next_available: [] });
    await fx.ok('task_plan_complete_subtask', completeArgs(0, 'claude-1'));
    const done = await refused(
      'task_plan_claim_subtask',
      claimArgs(0, 'codex-1', 'codex'),
      'PLAN_SUBTASK_NOT_AVAILABLE',
    );
    expect(done.status).toBe('completed');
    expect(done.next_available.map((s: { subtask_index: number }) => s.subtask_index)).toEqual([1, 2]);
  });

  it("answers the holder's repeated claim with already_claimed, writing nothing", async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'));
    const before = counts();
    expect(await fx.ok('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'))).toEqual({
      task_id: plan.subtasks[0]!.task_id,
      branch: 'spec/add-widget-page/sub-0',
      file_scope: ['packages/storage/src/widgets.ts'],
      already_claimed: true,
    });
    expect(counts()).toEqual(before);
  });

  it("warns about others' fresh claims on the sub-task's files, and still claims", async () => {
    const { task_id } = await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch: 'hotfix',
      session_id: 'other-1',
      agent: 'codex',
    });
    await fx.ok('task_claim_file', { task_id, session_id: 'other-1', file_path: 'packages/storage/src/widgets.ts' });
    const result = await fx.ok<{ warnings: string[] }>('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'));
    expect(result.warnings).toEqual([
      expect.stringContaining('packages/storage/src/widgets.ts is also claimed by other-1'),
    ]);
  });

  it('registers an unknown session as it claims, under the agent given', async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'brand-new', 'codex'));
    expect(getSubtask(fx.store, 1, 0)).toMatchObject({ claimedBySessionId: 'brand-new', claimedByAgent: 'codex' });
  });

  it('needs repo_root only when the slug exists in several repositories', async () => {
    const other = fx.repo('other');
    await publish(fx, other);
    const error = await refused('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex'), 'PLAN_AMBIGUOUS');
    expect(error.repo_roots).toEqual([repo, other]);
    const claimed = await fx.ok<{ task_id: number }>('task_plan_claim_subtask', {
      ...claimArgs(0, 'codex-1', 'codex'),
      repo_root: other,
    });
    expect(claimed.task_id).not.toBe(plan.subtasks[0]!.task_id);
  });

  it('can be claimed again after a rescue releases the claim; the history keeps both', async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'));
    await fx.store.write(() => releaseSubtaskClaim(fx.store, 1, fx.clock.now()));
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex'));
    expect(countSubtaskClaims(fx.store, 'released')).toBe(1);
    expect(countSubtaskClaims(fx.store, 'active')).toBe(1);
  });
});

describe('task_plan_complete_subtask', () => {
  it('refuses a sub-task nobody claimed, one claimed by another session, and unknown sessions', async () => {
    // A session that never joined anything is answered like any other non-claimer.
    await refused('task_plan_complete_subtask', completeArgs(0, 'ghost-1'), 'PLAN_SUBTASK_NOT_CLAIMED');
    await fx.ok('task_thread', { repo_root: repo, branch: 'main', session_id: 'claude-1', agent: 'claude' });
    const unclaimed = await refused(
      'task_plan_complete_subtask',
      completeArgs(0, 'claude-1'),
      'PLAN_SUBTASK_NOT_CLAIMED',
    );
    expect(unclaimed.status).toBe('available');
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'));
    const blocked = await refused(
      'task_plan_complete_subtask',
      completeArgs(1, 'claude-1'),
      'PLAN_SUBTASK_NOT_CLAIMED',
    );
    expect(blocked.status).toBe('blocked');
    await fx.ok('task_thread', { repo_root: repo, branch: 'main', session_id: 'codex-1', agent: 'codex' });
    const notYours = await refused('task_plan_complete_subtask', completeArgs(0, 'codex-1'), 'PLAN_SUBTASK_NOT_YOURS');
    expect(notYours).toMatchObject({ claimed_by_session_id: 'claude-1', claimed_by_agent: 'claude' });
    await refused('task_plan_complete_subtask', completeArgs(9, 'claude-1'), 'PLAN_SUBTASK_NOT_FOUND');
    await refused('task_plan_complete_subtask', { ...completeArgs(0, 'claude-1'), summary: '' }, 'INVALID_PARAMETERS');
    await fx.ok('task_plan_complete_subtask', completeArgs(0, 'claude-1'));
    const twice = await refused('task_plan_complete_subtask', completeArgs(0, 'claude-1'), 'PLAN_SUBTASK_NOT_CLAIMED');
    expect(twice.status).toBe('completed');
  });

  it("releases the sub-task's file claims only, keeping the session's other claims", async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'claude-1', 'claude'));
    const sub0 = plan.subtasks[0]!.task_id;
    await fx.ok('task_claim_file', { task_id: sub0, session_id: 'claude-1', file_path: 'notes/extra.md' });
    await fx.ok('task_plan_complete_subtask', completeArgs(0, 'claude-1'));
    expect(sessionClaims(fx.store, sub0, 'claude-1', ['active']).map((c) => c.filePath)).toEqual(['notes/extra.md']);
    expect(sessionClaims(fx.store, sub0, 'claude-1', ['released']).map((c) => c.filePath)).toEqual([
      'packages/storage/src/widgets.ts',
    ]);
  });
});

describe('task_plan_status_for_spec_row', () => {
  beforeEach(async () => {
    await fx.ok('task_plan_publish', {
      repo_root: repo,
      slug: 'spec-bound',
      session_id: 'queen-1',
      agent: 'claude',
      title: 'Spec-bound plan',
      problem: 'Rows T1 and T2 need work.',
      acceptance_criteria: ['both rows done'],
      subtasks: [
        subtask('Row T1', ['t1.ts'], [], { spec_row_id: 'T1' }),
        subtask('Row T2', ['t2.ts'], [], { spec_row_id: 'T2' }),
      ],
    });
  });

  it('answers the binding of a bound row, with its live status and holder', async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex', 'spec-bound'));
    const status = await fx.ok('task_plan_status_for_spec_row', { repo_root: repo, spec_row_id: 'T1' });
    const binding = {
      plan_slug: 'spec-bound',
      subtask_index: 0,
      task_id: expect.any(Number),
      branch: 'spec/spec-bound/sub-0',
      spec_row_id: 'T1',
    };
    expect(status).toEqual({
      ...binding,
      status: 'claimed',
      claimed_by_session_id: 'codex-1',
      claimed_by_agent: 'codex',
      binding,
    });
  });

  it('answers null for an unbound row or another repository', async () => {
    const unbound = { spec_row_id: 'T9', binding: null, status: null };
    expect(await fx.ok('task_plan_status_for_spec_row', { repo_root: repo, spec_row_id: 'T9' })).toEqual(unbound);
    expect(await fx.ok('task_plan_status_for_spec_row', { repo_root: fx.repo('x'), spec_row_id: 'T1' })).toMatchObject({
      binding: null,
    });
  });

  it('prefers the sub-task still in flight when a row was published twice', async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(1, 'codex-1', 'codex', 'spec-bound'));
    await fx.ok('task_plan_complete_subtask', completeArgs(1, 'codex-1', 'spec-bound'));
    await fx.ok('task_plan_publish', {
      ...publishArgsFor(repo, 'again'),
      subtasks: [subtask('T2 again', ['t2b.ts'], [], { spec_row_id: 'T2' }), subtask('Other', ['o.ts'])],
    });
    const status = await fx.ok('task_plan_status_for_spec_row', { repo_root: repo, spec_row_id: 'T2' });
    expect(status).toMatchObject({ plan_slug: 'again', status: 'available' });
  });
});

function publishArgsFor(root: string, slug: string) {
  return {
    repo_root: root,
    slug,
    session_id: 'queen-1',
    agent: 'claude',
    title: slug,
    problem: 'p',
    acceptance_criteria: ['a'],
    subtasks: threeWaveSubtasks(),
  };
}
