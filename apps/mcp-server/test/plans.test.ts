/**
 * Plans over the real wire: two server processes on one store (claude's and
 * codex's), driven by the MCP SDK client, their clock driven through COLONY_CLOCK_FILE.
 * A three-wave plan is walked end to end by two agents, every tool of the plan family
 * answers its contract shape, and every refusal answers its code and writes nothing.
 */
import { join } from 'node:path';
import {
  type ColonyStore,
  countClaims,
  countObservations,
  countPlans,
  countSubtaskClaims,
  countSubtasks,
} from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { type Server, setClock, startServer, tempDir } from './_harness';

const REPO = tempDir('colony-plans-repo-');
const OTHER_REPO = tempDir('colony-plans-other-');
const MINUTE = 60_000;

let claude: Server;
let codex: Server;
let store: ColonyStore;
let clockFile: string;
let now = Date.UTC(2026, 3, 1);

const advance = (ms: number) => {
  now += ms;
  setClock(clockFile, now);
};
const ok = async (server: Server, tool: string, args: Record<string, unknown>) => {
  const result = await server.call(tool, args);
  if (result.isError) throw new Error(`${tool} failed: ${result.text}`);
  return result.payload;
};
const snapshot = async () => ({
  observations: await countObservations(store),
  plans: await countPlans(store),
  subtasks: await Promise.all(
    (['available', 'claimed', 'completed', 'blocked'] as const).map((s) => countSubtasks(store, s)),
  ),
  subtaskClaims: await countSubtaskClaims(store),
  fileClaims: await Promise.all((['active', 'released'] as const).map((s) => countClaims(store, s))),
});
async function refused(server: Server, tool: string, args: Record<string, unknown>, code: string) {
  const before = await snapshot();
  const result = await server.call(tool, args);
  expect(result.isError, result.text).toBe(true);
  expect(result.payload).toMatchObject({ code, tool });
  expect(await snapshot()).toEqual(before);
  return result.payload;
}

const sub = (title: string, file_scope: string[], depends_on: number[] = [], capability_hint?: string) => ({
  title,
  description: `${title}.`,
  file_scope,
  depends_on,
  ...(capability_hint ? { capability_hint } : {}),
});
const threeWaves = [
  sub('Prepare storage', ['packages/storage/src/widgets.ts'], [], 'infra_work'),
  { ...sub('Build API', ['apps/api/src/widgets.ts'], [0], 'api_work'), spec_row_id: 'T5' },
  sub('Build UI', ['apps/frontend/src/widgets.tsx'], [0], 'ui_work'),
  sub('Verify release', ['apps/api/test/widgets.test.ts'], [1, 2], 'test_work'),
];
const publishArgs = (slug: string, subtasks: unknown[] = threeWaves, extra: Record<string, unknown> = {}) => ({
  repo_root: REPO,
  slug,
  session_id: 'queen-1',
  agent: 'claude',
  title: `Plan ${slug}`,
  problem: 'No widget page exists yet.',
  acceptance_criteria: ['Widget page renders'],
  subtasks,
  ...extra,
});

beforeAll(async () => {
  const dir = tempDir();
  const db = join(dir, 'colony.db');
  clockFile = join(dir, 'clock');
  setClock(clockFile, now);
  [claude, codex] = await Promise.all([
    startServer({ db, home: dir, clockFile }),
    startServer({ db, home: dir, clockFile, toolset: 'core' }),
  ]);
  store = await openTestStore(db);
}, 60_000);

afterAll(async () => {
  await store?.close();
  await Promise.all([claude?.close(), codex?.close()]);
});

describe('plans over stdio', () => {
  it('walks a three-wave plan end to end with two agents in two processes', async () => {
    const published = await ok(claude, 'task_plan_publish', publishArgs('widget-page'));
    expect(published).toEqual({
      plan_slug: 'widget-page',
      spec_task_id: expect.any(Number),
      spec_change_path: join(REPO, 'openspec/changes/widget-page/CHANGE.md'),
      subtasks: threeWaves.map((s, i) => ({
        subtask_index: i,
        branch: `spec/widget-page/sub-${i}`,
        task_id: expect.any(Number),
        title: s.title,
      })),
    });
    const next = async () =>
      (await ok(claude, 'task_plan_list', { repo_root: REPO }))
        .find((p: { plan_slug: string }) => p.plan_slug === 'widget-page')
        .next_available.map((s: { subtask_index: number }) => s.subtask_index);
    expect(await next()).toEqual([0]);

    // Wave 0: claude. The codex server serves the core toolset: claim and complete are in it.
    advance(MINUTE);
    const claimed = await ok(claude, 'task_plan_claim_subtask', {
      plan_slug: 'widget-page',
      subtask_index: 0,
      session_id: 'claude-1',
      agent: 'claude',
    });
    expect(claimed).toEqual({
      task_id: published.subtasks[0].task_id,
      branch: 'spec/widget-page/sub-0',
      file_scope: ['packages/storage/src/widgets.ts'],
    });
    await refused(
      codex,
      'task_plan_claim_subtask',
      { plan_slug: 'widget-page', subtask_index: 1, session_id: 'codex-1', agent: 'codex' },
      'PLAN_SUBTASK_DEPS_UNMET',
    );
    expect(
      await ok(claude, 'task_plan_complete_subtask', {
        plan_slug: 'widget-page',
        subtask_index: 0,
        session_id: 'claude-1',
        summary: 'storage ready',
      }),
    ).toEqual({
      status: 'completed',
      unblocked: [1, 2],
      auto_archive: { status: 'skipped', reason: 'auto_archive is off for this plan' },
    });

    // Wave 1: both agents in parallel, one per process.
    expect(await next()).toEqual([1, 2]);
    const [api, ui] = await Promise.all([
      ok(claude, 'task_plan_claim_subtask', {
        plan_slug: 'widget-page',
        subtask_index: 1,
        session_id: 'claude-1',
        agent: 'claude',
      }),
      ok(codex, 'task_plan_claim_subtask', {
        plan_slug: 'widget-page',
        subtask_index: 2,
        session_id: 'codex-1',
        agent: 'codex',
        repo_root: REPO,
        file_scope: ['apps/frontend/src/widgets.tsx'],
      }),
    ]);
    expect([api.branch, ui.branch]).toEqual(['spec/widget-page/sub-1', 'spec/widget-page/sub-2']);
    expect(await ok(claude, 'task_plan_status_for_spec_row', { repo_root: REPO, spec_row_id: 'T5' })).toMatchObject({
      plan_slug: 'widget-page',
      subtask_index: 1,
      status: 'claimed',
      claimed_by_agent: 'claude',
    });
    await refused(
      codex,
      'task_plan_complete_subtask',
      { plan_slug: 'widget-page', subtask_index: 1, session_id: 'codex-1', summary: 'not mine' },
      'PLAN_SUBTASK_NOT_YOURS',
    );
    const uiDone = await ok(codex, 'task_plan_complete_subtask', {
      plan_slug: 'widget-page',
      subtask_index: 2,
      session_id: 'codex-1',
      summary: 'page renders',
    });
    expect(uiDone.unblocked).toEqual([]);
    const apiDone = await ok(claude, 'task_plan_complete_subtask', {
      plan_slug: 'widget-page',
      subtask_index: 1,
      session_id: 'claude-1',
      summary: 'API serves rows',
    });
    expect(apiDone.unblocked).toEqual([3]);

    // Wave 2: the finalizer.
    expect(await next()).toEqual([3]);
    await ok(codex, 'task_plan_claim_subtask', {
      plan_slug: 'widget-page',
      subtask_index: 3,
      session_id: 'codex-1',
      agent: 'codex',
    });
    await ok(codex, 'task_plan_complete_subtask', {
      plan_slug: 'widget-page',
      subtask_index: 3,
      session_id: 'codex-1',
      summary: 'verified',
    });

    const [plan] = (await ok(claude, 'task_plan_list', { repo_root: REPO })).filter(
      (p: { plan_slug: string }) => p.plan_slug === 'widget-page',
    );
    expect(plan).toMatchObject({
      repo_root: REPO,
      spec_task_id: published.spec_task_id,
      registry_status: 'registered',
      status: 'active',
      created_at: now - MINUTE,
      subtask_counts: { available: 0, claimed: 0, completed: 4, blocked: 0 },
      next_available: [],
    });
    expect(plan.subtasks.map((s: Record<string, unknown>) => [s.status, s.wave_index, s.claimed_by_agent])).toEqual([
      ['completed', 0, 'claude'],
      ['completed', 1, 'claude'],
      ['completed', 1, 'codex'],
      ['completed', 2, 'codex'],
    ]);
    expect(await countClaims(store, 'active')).toBe(0);
    expect(await ok(claude, 'task_plan_status_for_spec_row', { repo_root: REPO, spec_row_id: 'T5' })).toMatchObject({
      status: 'completed',
      binding: { plan_slug: 'widget-page', subtask_index: 1, spec_row_id: 'T5' },
    });
  });

  it('validates a plan: overlaps, ordered-wave errors and live claims aged by the server clock', async () => {
    const clean = await ok(claude, 'task_plan_validate', { repo_root: REPO, subtasks: threeWaves });
    expect(clean).toMatchObject({
      pairwise_overlaps: [],
      ordered_wave_errors: [],
      waves: [0, 1, 1, 2],
      partition_clean: true,
      summary: { blocking: false, counts: { error: 0 } },
    });

    const thread = await ok(claude, 'task_thread', {
      repo_root: REPO,
      branch: 'feature/other',
      session_id: 'other-1',
      agent: 'codex',
    });
    await ok(claude, 'task_claim_file', { task_id: thread.task_id, session_id: 'other-1', file_path: 'src/shared.ts' });
    const risky = [sub('A', ['src/shared.ts', 'src/a.ts']), sub('B', ['./src/shared.ts', 'src/b.ts'])];
    const report = await ok(claude, 'task_plan_validate', { repo_root: REPO, subtasks: risky });
    expect(report).toMatchObject({
      pairwise_overlaps: [{ a: 0, b: 1, shared: ['src/shared.ts'] }],
      live_claim_collisions: [
        { subtask_index: 0, file_path: 'src/shared.ts', holder_session_id: 'other-1', holder_branch: 'feature/other' },
        { subtask_index: 1, file_path: 'src/shared.ts', holder_session_id: 'other-1' },
      ],
      ordered_wave_errors: [{ code: 'PLAN_WAVE_SCOPE_OVERLAP', wave: 0, related_subtask_indices: [0, 1] }],
      partition_clean: false,
      summary: { blocking: true },
    });
    advance(61 * MINUTE); // the claim turns stale: history, not ownership
    const later = await ok(claude, 'task_plan_validate', { repo_root: REPO, subtasks: risky });
    expect(later.live_claim_collisions).toEqual([]);
  });

  it('refuses bad plans with their codes and writes nothing', async () => {
    const cases: Array<[unknown[], string]> = [
      [[sub('A', ['a.ts'], [1]), sub('B', ['b.ts'])], 'PLAN_INVALID_WAVE_DEPENDENCY'],
      [[sub('A', ['a.ts']), sub('B', ['a.ts'])], 'PLAN_WAVE_SCOPE_OVERLAP'],
      [[sub('A', ['a.ts']), sub('B', ['b.ts']), sub('Verify release', ['t.ts'], [0])], 'PLAN_FINALIZER_NOT_LAST'],
      [[sub('A', ['a.ts']), sub('B', ['b.ts'], [0]), sub('C', ['b.ts'])], 'PLAN_SCOPE_OVERLAP'],
      [[sub('A', ['../outside.ts']), sub('B', ['b.ts'])], 'PATH_OUTSIDE_REPO'],
      [[sub('A', ['a.ts'])], 'INVALID_PARAMETERS'],
    ];
    for (const [subtasks, code] of cases) {
      const payload = await refused(claude, 'task_plan_publish', publishArgs('bad-plan', subtasks), code);
      if (code.startsWith('PLAN_')) expect(payload.errors[0].code).toBe(code);
    }
    await refused(claude, 'task_plan_publish', publishArgs('Bad Slug'), 'INVALID_PARAMETERS');
    await refused(claude, 'task_plan_publish', publishArgs('widget-page'), 'PLAN_ALREADY_PUBLISHED');
  });

  it('answers claim and complete refusals with their codes and hints, writing nothing', async () => {
    await ok(claude, 'task_plan_publish', publishArgs('refusals'));
    const claim = (subtask_index: number, session_id: string, extra: Record<string, unknown> = {}) => ({
      plan_slug: 'refusals',
      subtask_index,
      session_id,
      agent: 'codex',
      ...extra,
    });
    await refused(
      codex,
      'task_plan_claim_subtask',
      claim(0, 'codex-9', { plan_slug: 'no-such-plan' }),
      'PLAN_SUBTASK_NOT_FOUND',
    );
    await refused(codex, 'task_plan_claim_subtask', claim(7, 'codex-9'), 'PLAN_SUBTASK_NOT_FOUND');
    const unmet = await refused(codex, 'task_plan_claim_subtask', claim(3, 'codex-9'), 'PLAN_SUBTASK_DEPS_UNMET');
    expect(unmet).toMatchObject({ unmet: [1, 2], next_available: [{ subtask_index: 0 }] });
    await ok(claude, 'task_plan_claim_subtask', { ...claim(0, 'claude-2'), agent: 'claude' });
    const taken = await refused(codex, 'task_plan_claim_subtask', claim(0, 'codex-9'), 'PLAN_SUBTASK_NOT_AVAILABLE');
    expect(taken).toMatchObject({ status: 'claimed', claimed_by_agent: 'claude', next_available: [] });
    expect(await ok(claude, 'task_plan_claim_subtask', { ...claim(0, 'claude-2'), agent: 'claude' })).toMatchObject({
      already_claimed: true,
    });

    const complete = (subtask_index: number, session_id: string) => ({
      plan_slug: 'refusals',
      subtask_index,
      session_id,
      summary: 'done',
    });
    await refused(codex, 'task_plan_complete_subtask', complete(1, 'claude-2'), 'PLAN_SUBTASK_NOT_CLAIMED');
    const notYours = await refused(
      codex,
      'task_plan_complete_subtask',
      complete(0, 'codex-1'),
      'PLAN_SUBTASK_NOT_YOURS',
    );
    expect(notYours).toMatchObject({ claimed_by_session_id: 'claude-2', claimed_by_agent: 'claude' });
    await refused(codex, 'task_plan_complete_subtask', complete(0, 'ghost'), 'PLAN_SUBTASK_NOT_YOURS');
    await refused(codex, 'task_plan_complete_subtask', complete(9, 'claude-2'), 'PLAN_SUBTASK_NOT_FOUND');

    await ok(claude, 'task_plan_publish', publishArgs('refusals', threeWaves, { repo_root: OTHER_REPO }));
    await refused(codex, 'task_plan_claim_subtask', claim(0, 'codex-9'), 'PLAN_AMBIGUOUS');
    expect(await ok(codex, 'task_plan_claim_subtask', claim(0, 'codex-9', { repo_root: OTHER_REPO }))).toMatchObject({
      branch: 'spec/refusals/sub-0',
    });
  });

  it('lists plans filtered by repository, availability and capability, and reports unbound spec rows', async () => {
    advance(MINUTE);
    await ok(claude, 'task_plan_publish', publishArgs('listing'));
    const slugs = async (args: Record<string, unknown>) =>
      (await ok(claude, 'task_plan_list', args)).map((p: { plan_slug: string; repo_root: string }) =>
        p.repo_root === REPO ? p.plan_slug : `${p.plan_slug}@other`,
      );
    expect(await slugs({})).toEqual(['listing', 'refusals@other', 'refusals', 'widget-page']);
    expect(await slugs({ repo_root: REPO })).toEqual(['listing', 'refusals', 'widget-page']);
    expect(await slugs({ limit: 1 })).toEqual(['listing']);
    expect(await slugs({ only_with_available_subtasks: true })).toEqual(['listing']);
    expect(await slugs({ capability_match: 'infra_work' })).toEqual(['listing']);
    expect(await slugs({ capability_match: 'ui_work' })).toEqual([]);
    expect(await ok(claude, 'task_plan_status_for_spec_row', { repo_root: REPO, spec_row_id: 'T99' })).toEqual({
      spec_row_id: 'T99',
      binding: null,
      status: null,
    });
  });
});
