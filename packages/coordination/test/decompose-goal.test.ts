/**
 * decomposeGoal: the queen's deterministic split of a goal into lanes by kind of work
 * and module, ordered in waves, closed by a finalizer.
 */
import { describe, expect, it } from 'vitest';
import { checkPlanRules } from '../src/plans/plan-rules';
import {
  capabilityMap,
  capabilityOf,
  decomposeGoal,
  MAX_LANES,
  MAX_SLUG_CHARS,
  moduleOf,
  type QueenGoal,
  slugify,
} from '../src/queen/decompose-goal';

function goal(extra: Partial<QueenGoal> = {}): QueenGoal {
  return {
    goal_title: 'Add widget page',
    problem: 'No widget page exists yet.',
    acceptance_criteria: ['Widget page renders', 'Widget API returns rows'],
    repo_root: '/abs/repo',
    affected_files: [],
    ordering_hint: 'wave',
    session_id: 'sess_q',
    ...extra,
  };
}

describe('capabilityOf / moduleOf', () => {
  it.each([
    ['docs/mcp.md', 'doc_work'],
    ['README.md', 'doc_work'],
    ['packages/storage/test/claims.test.ts', 'test_work'],
    ['src/widgets.spec.ts', 'test_work'],
    ['apps/frontend/src/pages/widgets.tsx', 'ui_work'],
    ['src/components/card.ts', 'ui_work'],
    ['.github/workflows/ci.yml', 'infra_work'],
    ['package.json', 'infra_work'],
    ['apps/api/src/widgets.ts', 'api_work'],
  ])('%s is %s', (file, kind) => {
    expect(capabilityOf(file)).toBe(kind);
  });

  it('groups packages/<name> and apps/<name> as modules, else the top folder', () => {
    expect(moduleOf('packages/storage/src/a.ts')).toBe('packages/storage');
    expect(moduleOf('apps/cli/src/a.ts')).toBe('apps/cli');
    expect(moduleOf('docs/a.md')).toBe('docs');
    expect(moduleOf('README.md')).toBe('.');
  });
});

describe('slugify', () => {
  it('joins lower-case words with dashes, within the length limit and whole words', () => {
    expect(slugify('Document every MCP tool!')).toBe('document-every-mcp-tool');
    const long = slugify('a very long goal title that keeps going and going past the slug limit');
    expect(long.length).toBeLessThanOrEqual(MAX_SLUG_CHARS);
    expect(long.endsWith('-')).toBe(false);
    expect(slugify('!!!')).toBe('goal');
  });
});

describe('decomposeGoal', () => {
  it('splits files into lanes by kind and module, tests and docs after the implementation, a finalizer last', () => {
    const plan = decomposeGoal(
      goal({
        affected_files: [
          'apps/frontend/src/pages/widgets.tsx',
          'apps/api/src/widgets.ts',
          'apps/api/test/widgets.test.ts',
          'docs/widgets.md',
          'apps/api/src/routes.ts',
        ],
        finalizer: 'Verify widget page end to end',
      }),
    );
    expect(plan).toMatchObject({
      repo_root: '/abs/repo',
      slug: 'add-widget-page',
      session_id: 'sess_q',
      title: 'Add widget page',
      problem: 'No widget page exists yet.',
      acceptance_criteria: ['Widget page renders', 'Widget API returns rows'],
      auto_archive: true,
    });
    expect(plan.subtasks.map((s) => [s.title, s.file_scope, s.depends_on, s.capability_hint])).toEqual([
      ['Implementation in apps/api', ['apps/api/src/routes.ts', 'apps/api/src/widgets.ts'], [], 'api_work'],
      ['UI in apps/frontend', ['apps/frontend/src/pages/widgets.tsx'], [], 'ui_work'],
      ['Tests in apps/api', ['apps/api/test/widgets.test.ts'], [0, 1], 'test_work'],
      ['Update documentation in docs', ['docs/widgets.md'], [0, 1], 'doc_work'],
      [
        'Verify widget page end to end',
        [
          'apps/api/src/routes.ts',
          'apps/api/src/widgets.ts',
          'apps/api/test/widgets.test.ts',
          'apps/frontend/src/pages/widgets.tsx',
          'docs/widgets.md',
        ],
        [0, 1, 2, 3],
        'test_work',
      ],
    ]);
    expect(checkPlanRules(plan.subtasks).errors).toEqual([]);
    expect(plan.subtasks[4]?.description).toContain('- Widget API returns rows');
    expect(capabilityMap(plan.subtasks)).toEqual({ api_work: [0], ui_work: [1], test_work: [2, 4], doc_work: [3] });
  });

  it('never puts one file in two lanes, even when it is listed twice', () => {
    const plan = decomposeGoal(goal({ affected_files: ['src/a.ts', 'src/a.ts', 'src/b.ts'] }));
    const lanes = plan.subtasks.slice(0, -1).flatMap((s) => s.file_scope);
    expect(lanes).toEqual(['src/a.ts', 'src/b.ts']);
  });

  it.each([
    ['wave', ['src/a.ts']],
    ['wave', ['apps/api/src/a.ts', 'apps/web/src/b.tsx', 'apps/api/test/a.test.ts', 'README.md', 'ci.yml']],
    ['serial', ['apps/api/src/a.ts', 'apps/web/src/b.tsx', 'apps/api/test/a.test.ts', 'docs/x.md']],
    [
      'wave',
      Array.from({ length: 30 }, (_, i) => `packages/p${i % 10}/${i % 3 === 0 ? 'test/x.test.ts' : 'src/x.ts'}`),
    ],
  ] as const)('always passes the plan rules (%s ordering, case %#)', (ordering, files) => {
    const plan = decomposeGoal(goal({ ordering_hint: ordering, affected_files: files, finalizer: 'Wrap up' }));
    expect(checkPlanRules(plan.subtasks).errors).toEqual([]);
    expect(plan.subtasks.at(-1)?.title).toBe('Verify: Wrap up');
    expect(plan.subtasks.length).toBeGreaterThanOrEqual(2);
  });

  it('chains every lane after the previous one with serial ordering', () => {
    const plan = decomposeGoal(
      goal({ ordering_hint: 'serial', affected_files: ['apps/api/src/a.ts', 'apps/web/src/b.tsx', 'docs/c.md'] }),
    );
    expect(plan.subtasks.map((s) => s.depends_on)).toEqual([[], [0], [1], [0, 1, 2]]);
  });

  it('makes one lane plus the finalizer from a single file', () => {
    const plan = decomposeGoal(goal({ affected_files: ['src/widgets.ts'] }));
    expect(plan.subtasks.map((s) => [s.title, s.file_scope, s.depends_on])).toEqual([
      ['Implementation in src', ['src/widgets.ts'], []],
      ['Verify Add widget page', ['src/widgets.ts'], [0]],
    ]);
  });

  it('keeps titles and descriptions within what a plan accepts', () => {
    const plan = decomposeGoal(
      goal({ goal_title: 'x'.repeat(200), problem: 'p'.repeat(4000), affected_files: ['README.md'] }),
    );
    for (const s of plan.subtasks) {
      expect(s.title.length).toBeLessThanOrEqual(200);
      expect(s.description.length).toBeLessThanOrEqual(4000);
    }
  });

  it(`merges modules once there would be more than ${MAX_LANES} lanes`, () => {
    const files = Array.from({ length: 12 }, (_, i) => `packages/p${i}/src/index.ts`);
    const plan = decomposeGoal(goal({ affected_files: files }));
    expect(plan.subtasks).toHaveLength(2);
    expect(plan.subtasks[0]?.file_scope).toHaveLength(12);
    expect(checkPlanRules(plan.subtasks).errors).toEqual([]);
    expect(plan.subtasks[0]?.title).toBe('Implementation: Add widget page');
  });

  it('is deterministic whatever the order of the files', () => {
    const files = ['docs/a.md', 'apps/api/src/a.ts', 'apps/web/src/b.tsx', 'apps/api/test/a.test.ts'];
    expect(decomposeGoal(goal({ affected_files: [...files].reverse() }))).toEqual(
      decomposeGoal(goal({ affected_files: files })),
    );
  });
});
