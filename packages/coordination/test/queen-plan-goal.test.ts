/**
 * queen_plan_goal: a goal decomposed into a valid plan, shown with dry_run (nothing
 * written) or published through task_plan_publish with auto_archive on.
 */
import { countPlans, countSubtasks, getObservation, listPlans } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
type Answer = any;

let fx: Fixture;
let repo: string;
beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
});
afterEach(() => fx.close());

const goal = (extra: Record<string, unknown> = {}) => ({
  goal_title: 'Document every MCP tool',
  problem: 'Users cannot see the complete callable surface in one place.',
  acceptance_criteria: ['Each live tool has a docs section', 'Docs coverage is tested'],
  repo_root: repo,
  affected_files: ['docs/mcp.md', 'packages/tools/src/docs.ts', 'test/docs.test.ts'],
  ordering_hint: 'wave',
  finalizer: 'Verify docs coverage',
  session_id: 'queen-1',
  ...extra,
});
const written = () => ({
  observations: fx.observations(),
  plans: countPlans(fx.store),
  subtasks: countSubtasks(fx.store),
});

describe('queen_plan_goal', () => {
  it('shows the normalized plan with dry_run, writing nothing', async () => {
    const before = written();
    const result = await fx.ok<Answer>('queen_plan_goal', goal({ dry_run: true }));
    expect(result).toMatchObject({
      dry_run: true,
      plan_slug: 'document-every-mcp-tool',
      mcp_capability_map: { api_work: [0], test_work: [1, 3], doc_work: [2] },
      plan_validation: { partition_clean: true, ordered_wave_errors: [], pairwise_overlaps: [] },
    });
    expect(result.plan).toMatchObject({
      repo_root: repo,
      slug: 'document-every-mcp-tool',
      session_id: 'queen-1',
      agent: 'queen',
      title: 'Document every MCP tool',
      auto_archive: true,
    });
    expect(result.plan.subtasks.map((s: Answer) => [s.title, s.file_scope, s.depends_on])).toEqual([
      ['Implementation in packages/tools', ['packages/tools/src/docs.ts'], []],
      ['Tests in test', ['test/docs.test.ts'], [0]],
      ['Update documentation in docs', ['docs/mcp.md'], [0]],
      ['Verify docs coverage', ['docs/mcp.md', 'packages/tools/src/docs.ts', 'test/docs.test.ts'], [0, 1, 2]],
    ]);
    expect(written()).toEqual(before);
    // The preview is exactly what task_plan_publish takes.
    expect(await fx.ok('task_plan_publish', result.plan)).toMatchObject({ plan_slug: 'document-every-mcp-tool' });
  });

  it('publishes the plan with auto_archive, claimable through task_ready_for_agent', async () => {
    await fx.ok('task_thread', { repo_root: repo, branch: 'main', session_id: 'queen-1', agent: 'claude' });
    const result = await fx.ok<Answer>('queen_plan_goal', goal());
    expect(result).toEqual({
      plan_slug: 'document-every-mcp-tool',
      spec_task_id: expect.any(Number),
      mcp_capability_map: { api_work: [0], test_work: [1, 3], doc_work: [2] },
      subtasks: [0, 1, 2, 3].map((i) => ({
        subtask_index: i,
        branch: `spec/document-every-mcp-tool/sub-${i}`,
        task_id: expect.any(Number),
        title: expect.any(String),
      })),
      plan_validation: expect.objectContaining({ partition_clean: true }),
    });
    const [plan] = listPlans(fx.store);
    expect(plan).toMatchObject({ autoArchive: true, createdBy: 'queen-1', createdByAgent: 'claude' });
    expect(getObservation(fx.store, plan?.observationId as number)?.metadata).toMatchObject({ auto_archive: true });
    const ready = await fx.ok<Answer>('task_ready_for_agent', {
      session_id: 'codex-1',
      agent: 'codex',
      repo_root: repo,
      auto_claim: false,
    });
    expect(ready.ready.map((e: Answer) => e.title)).toEqual(['Implementation in packages/tools']);
  });

  it('is deterministic, and takes the next free slug when the title’s is published', async () => {
    const preview = await fx.ok<Answer>('queen_plan_goal', goal({ dry_run: true }));
    expect(await fx.ok<Answer>('queen_plan_goal', goal({ dry_run: true }))).toEqual(preview);
    expect((await fx.ok<Answer>('queen_plan_goal', goal())).plan_slug).toBe('document-every-mcp-tool');
    expect((await fx.ok<Answer>('queen_plan_goal', goal())).plan_slug).toBe('document-every-mcp-tool-2');
    expect((await fx.ok<Answer>('queen_plan_goal', goal({ dry_run: true }))).plan_slug).toBe(
      'document-every-mcp-tool-3',
    );
  });

  it('stores absolute affected files repo-relative, and refuses files outside the repository', async () => {
    const abs = await fx.ok<Answer>(
      'queen_plan_goal',
      goal({ dry_run: true, affected_files: [`${repo}/src/a.ts`, 'src/b.ts'] }),
    );
    expect(abs.plan.subtasks[0].file_scope).toEqual(['src/a.ts', 'src/b.ts']);
    const before = written();
    const error = await fx.fail('queen_plan_goal', goal({ affected_files: ['../elsewhere/x.ts'] }));
    expect(error.code).toBe('PATH_OUTSIDE_REPO');
    expect(written()).toEqual(before);
  });

  it.each([
    ['no affected files', { affected_files: [] }],
    ['no acceptance criteria', { acceptance_criteria: [] }],
    ['an unknown ordering', { ordering_hint: 'random' }],
    ['a relative repo_root', { repo_root: 'repo' }],
    ['an oversize problem', { problem: 'p'.repeat(3001) }],
  ])('refuses %s with INVALID_PARAMETERS', async (_label, extra) => {
    const before = written();
    expect((await fx.fail('queen_plan_goal', goal(extra))).code).toBe('INVALID_PARAMETERS');
    expect(written()).toEqual(before);
  });
});
