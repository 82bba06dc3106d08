/**
 * task_plan_validate and task_plan_publish: the rules each refusal names, repo-relative
 * file scopes, the validation report (overlaps, live claims aged by the clock, module
 * warnings, summary), and refusals that write nothing.
 */
import { countObservations, countPlans, countSubtasks, countTasks } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';
import { publishArgs, subtask, threeWaveSubtasks } from './_plans';

const MINUTE = 60_000;

let fx: Fixture;
let repo: string;

beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
});
afterEach(() => fx.close());

const counts = () => ({
  observations: countObservations(fx.store),
  tasks: countTasks(fx.store),
  plans: countPlans(fx.store),
  subtasks: countSubtasks(fx.store),
});

async function refused(subtasks: unknown[], code: string, extra: Record<string, unknown> = {}) {
  const before = counts();
  const error = await fx.fail('task_plan_publish', publishArgs(repo, { subtasks, ...extra }));
  expect(error.code).toBe(code);
  expect(counts()).toEqual(before);
  return error;
}

describe('task_plan_publish refusals', () => {
  it('refuses forward references, indices outside the plan and self-dependencies', async () => {
    const forward = await refused(
      [subtask('A', ['a.ts'], [1]), subtask('B', ['b.ts'])],
      'PLAN_INVALID_WAVE_DEPENDENCY',
    );
    expect(forward.errors).toEqual([
      {
        code: 'PLAN_INVALID_WAVE_DEPENDENCY',
        message: 'sub-task 0 depends on 1: dependencies must point to earlier indices',
        subtask_index: 0,
        dependency_index: 1,
      },
    ]);
    const outside = await refused(
      [subtask('A', ['a.ts']), subtask('B', ['b.ts'], [5])],
      'PLAN_INVALID_WAVE_DEPENDENCY',
    );
    expect(outside.errors[0]).toMatchObject({ subtask_index: 1, dependency_index: 5 });
    await refused([subtask('A', ['a.ts']), subtask('B', ['b.ts'], [-1])], 'PLAN_INVALID_WAVE_DEPENDENCY');
    await refused([subtask('A', ['a.ts']), subtask('B', ['b.ts'], [1])], 'PLAN_INVALID_WAVE_DEPENDENCY');
  });

  it('names the cycle a pair of mutual dependencies makes', async () => {
    const error = await refused(
      [subtask('A', ['a.ts'], [1]), subtask('B', ['b.ts'], [0])],
      'PLAN_INVALID_WAVE_DEPENDENCY',
    );
    expect(error.errors.at(-1)).toEqual({
      code: 'PLAN_INVALID_WAVE_DEPENDENCY',
      message: 'dependency cycle: 0 -> 1 -> 0',
      related_subtask_indices: [0, 1, 0],
    });
  });

  it('refuses parallel sub-tasks of one wave sharing a file, however the path is spelled', async () => {
    const error = await refused(
      [subtask('A', ['src/x.ts']), subtask('B', [`${repo}/src/x.ts`]), subtask('C', ['./src//x.ts'], [0])],
      'PLAN_WAVE_SCOPE_OVERLAP',
    );
    expect(error.errors[0]).toMatchObject({ wave: 0, shared: ['src/x.ts'], related_subtask_indices: [0, 1] });
  });

  it('refuses independent sub-tasks in different waves sharing a file, and accepts them once sequenced', async () => {
    const overlapping = [subtask('A', ['a.ts']), subtask('B', ['b.ts'], [0]), subtask('C', ['b.ts'])];
    const error = await refused(overlapping, 'PLAN_SCOPE_OVERLAP');
    expect(error.errors).toEqual([
      expect.objectContaining({ code: 'PLAN_SCOPE_OVERLAP', shared: ['b.ts'], related_subtask_indices: [1, 2] }),
    ]);
    const sequenced = [subtask('A', ['a.ts']), subtask('B', ['b.ts'], [0]), subtask('C', ['b.ts'], [1])];
    await fx.ok('task_plan_publish', publishArgs(repo, { subtasks: sequenced }));
  });

  it('refuses finalizers that do not run after every other sub-task', async () => {
    const early = await refused(
      [subtask('Build API', ['api.ts']), subtask('Build UI', ['ui.ts']), subtask('Verify release', ['t.ts'], [0])],
      'PLAN_FINALIZER_NOT_LAST',
    );
    expect(early.errors).toEqual([
      expect.objectContaining({ subtask_index: 2, wave: 1, related_subtask_indices: [1] }),
    ]);
    expect(early.error).toContain('must depend on every earlier non-finalizer');
    // A finalizer before later work, and doc/test finalizers judged by capability_hint.
    await refused([subtask('Final QA pass', ['qa.ts']), subtask('Build', ['b.ts'])], 'PLAN_FINALIZER_NOT_LAST');
    await refused(
      [
        subtask('A', ['a.ts']),
        subtask('B', ['b.ts']),
        subtask('Run tests', ['t.ts'], [0], { capability_hint: 'test_work' }),
      ],
      'PLAN_FINALIZER_NOT_LAST',
    );
    await refused(
      [
        subtask('A', ['a.ts']),
        subtask('B', ['b.ts']),
        subtask('Update the docs', ['d.md'], [1], { capability_hint: 'doc_work' }),
      ],
      'PLAN_FINALIZER_NOT_LAST',
    );
    // Not finalizers: "Run tests" without test_work, doc work that is not a final update.
    await fx.ok(
      'task_plan_publish',
      publishArgs(repo, {
        slug: 'not-finalizers',
        subtasks: [
          subtask('Run tests', ['t.ts']),
          subtask('Write docs', ['d.md'], [], { capability_hint: 'doc_work' }),
        ],
      }),
    );
  });

  it('answers the first code in precedence order and lists every error found', async () => {
    const error = await refused(
      [subtask('A', ['x.ts']), subtask('B', ['x.ts']), subtask('Verify', ['v.ts'], [0])],
      'PLAN_WAVE_SCOPE_OVERLAP',
    );
    expect(error.errors.map((e: { code: string }) => e.code)).toEqual([
      'PLAN_WAVE_SCOPE_OVERLAP',
      'PLAN_FINALIZER_NOT_LAST',
    ]);
  });

  it('refuses a path leaving the repository, a lone sub-task, a bad slug, oversize input and a taken slug', async () => {
    await refused([subtask('A', ['../escape.ts']), subtask('B', ['b.ts'])], 'PATH_OUTSIDE_REPO');
    await refused([subtask('A', ['a.ts'])], 'INVALID_PARAMETERS');
    await refused(threeWaveSubtasks(), 'INVALID_PARAMETERS', { slug: 'Not_Kebab' });
    await refused(threeWaveSubtasks(), 'INVALID_PARAMETERS', { repo_root: 'relative/repo' });
    await refused([subtask('A', []), subtask('B', ['b.ts'])], 'INVALID_PARAMETERS');
    await refused(
      Array.from({ length: 51 }, (_, i) => subtask(`S${i}`, [`f${i}.ts`])),
      'INVALID_PARAMETERS',
    );
    await refused(threeWaveSubtasks(), 'INVALID_PARAMETERS', { problem: 'x'.repeat(4001) });
    await fx.ok('task_plan_publish', publishArgs(repo));
    const taken = await refused(threeWaveSubtasks(), 'PLAN_ALREADY_PUBLISHED');
    expect(taken).toMatchObject({ plan_slug: 'add-widget-page', repo_root: repo });
    // The same slug in another repository is another plan.
    await fx.ok('task_plan_publish', publishArgs(fx.repo('other')));
  });
});

describe('task_plan_validate', () => {
  it('reports a clean plan: waves, a finalizer noted as info, partition_clean', async () => {
    const report = await fx.ok('task_plan_validate', { repo_root: repo, subtasks: threeWaveSubtasks() });
    expect(report).toEqual({
      pairwise_overlaps: [],
      live_claim_collisions: [],
      module_warnings: [],
      ordered_wave_errors: [],
      waves: [0, 1, 1, 2],
      summary: {
        blocking: false,
        finding_count: 1,
        counts: { error: 0, warning: 0, info: 1 },
        findings: [
          {
            code: 'PLAN_FINALIZER',
            severity: 'info',
            message: 'sub-task 3 is a finalizer: it runs last',
            subtask_index: 3,
          },
        ],
      },
      partition_clean: true,
    });
  });

  it('writes nothing, even for a plan publishing would refuse', async () => {
    const before = counts();
    const report = await fx.ok('task_plan_validate', {
      repo_root: repo,
      subtasks: [subtask('A', ['a.ts'], [1]), subtask('B', ['b.ts'])],
    });
    expect(report).toMatchObject({ waves: null, partition_clean: false, summary: { blocking: true } });
    expect(counts()).toEqual(before);
  });

  it('warns about parallel sub-tasks sharing a folder, not about sequenced ones', async () => {
    const report = await fx.ok('task_plan_validate', {
      repo_root: repo,
      subtasks: [
        subtask('A', ['src/api/a.ts']),
        subtask('B', ['src/api/b.ts']),
        subtask('C', ['src/api/c.ts'], [0, 1]),
      ],
    });
    expect(report).toMatchObject({
      module_warnings: [{ a: 0, b: 1, shared_modules: ['src/api'] }],
      partition_clean: true,
      summary: { blocking: false, counts: { warning: 1 } },
    });
  });

  it("lists others' fresh and handoff-pending claims on the plan's files, not stale ones", async () => {
    const { task_id } = await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch: 'feature/x',
      session_id: 'holder-1',
      agent: 'codex',
    });
    await fx.ok('task_claim_file', { task_id, session_id: 'holder-1', file_path: 'apps/api/src/widgets.ts' });
    const report = await fx.ok<Record<string, unknown>>('task_plan_validate', {
      repo_root: repo,
      subtasks: threeWaveSubtasks(),
    });
    expect(report.live_claim_collisions).toEqual([
      {
        subtask_index: 1,
        file_path: 'apps/api/src/widgets.ts',
        holder_session_id: 'holder-1',
        holder_agent: 'codex',
        holder_task_id: task_id,
        holder_branch: 'feature/x',
        claimed_at: fx.clock.now(),
      },
    ]);
    expect(report.partition_clean).toBe(false);
    fx.clock.advance(61 * MINUTE);
    const later = await fx.ok<Record<string, unknown>>('task_plan_validate', {
      repo_root: repo,
      subtasks: threeWaveSubtasks(),
    });
    expect(later.live_claim_collisions).toEqual([]);
    expect(later.partition_clean).toBe(true);
  });
});
