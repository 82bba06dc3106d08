/**
 * Choosing work over the real wire: capability profiles, task_ready_for_agent (browse,
 * auto-claim, routing, empty states), task_autopilot_tick and queen_plan_goal, against
 * a server process driven by the MCP SDK client with its clock driven through
 * COLONY_CLOCK_FILE. Refusals are checked to write nothing by reading the same store.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ColonyStore, countObservations, countPlans, countSubtaskClaims, listProfiles } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { calls, serverClock } from './_calls';
import { type Server, startServer, tempDir } from './_harness';

const MINUTE = 60_000;
let server: Server;
let store: ColonyStore;
let dir: string;
let clock: ReturnType<typeof serverClock>;

/** A folder to use as a repository root (publishing writes the plan's spec change into it). */
const repoDir = (name: string) => {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
};
const snapshot = async () => ({
  observations: await countObservations(store),
  plans: await countPlans(store),
  claims: await countSubtaskClaims(store),
  profiles: (await listProfiles(store)).length,
});
const { ok, refused } = calls(() => server, snapshot);
const subtask = (title: string, files: string[], depends_on: number[] = [], capability_hint?: string) => ({
  title,
  description: `${title}.`,
  file_scope: files,
  depends_on,
  ...(capability_hint ? { capability_hint } : {}),
});
const publish = (repo: string, slug: string, subtasks: unknown[]) =>
  ok('task_plan_publish', {
    repo_root: repo,
    slug,
    session_id: 'queen-1',
    agent: 'claude',
    title: slug,
    problem: 'p',
    acceptance_criteria: ['done'],
    subtasks,
  });

beforeAll(async () => {
  dir = tempDir();
  const db = join(dir, 'colony.db');
  const clockFile = join(dir, 'clock');
  clock = serverClock(clockFile, Date.UTC(2026, 3, 1));
  server = await startServer({ db, home: dir, clockFile });
  store = await openTestStore(db);
}, 60_000);

afterAll(async () => {
  await store?.close();
  await server?.close();
});

describe('capability profiles over stdio', () => {
  it('reads 0.5 defaults, saves merged weights with the server clock, and refuses bad weights', async () => {
    const defaults = { ui_work: 0.5, api_work: 0.5, test_work: 0.5, infra_work: 0.5, doc_work: 0.5 };
    expect(await ok('agent_get_profile', { agent: 'gemini' })).toEqual({
      agent: 'gemini',
      capabilities: defaults,
      defaults,
    });
    expect(await ok('agent_upsert_profile', { agent: 'gemini', capabilities: { ui_work: 0.9 } })).toEqual({
      agent: 'gemini',
      capabilities: { ...defaults, ui_work: 0.9 },
      created_at: clock.now(),
      updated_at: clock.now(),
    });
    clock.advance(MINUTE);
    const saved = await ok('agent_upsert_profile', { agent: 'gemini', capabilities: { api_work: 0.1 } });
    expect(saved).toMatchObject({ capabilities: { ui_work: 0.9, api_work: 0.1 }, updated_at: clock.now() });
    await refused('agent_upsert_profile', { agent: 'gemini', capabilities: { ui_work: 2 } }, 'INVALID_PARAMETERS');
    await refused('agent_upsert_profile', { agent: 'gemini', capabilities: { 'Bad Name': 1 } }, 'INVALID_PARAMETERS');
  });
});

describe('task_ready_for_agent over stdio', () => {
  let repo: string;
  beforeAll(async () => {
    repo = repoDir('repo-ready');
  });

  it('answers the empty state before any plan, and stops task_list nagging once called', async () => {
    const empty = join(dir, 'repo-empty');
    expect((await ok('task_list', { session_id: 'fresh-1' })).next_tool).toBe('task_ready_for_agent');
    expect(await ok('task_ready_for_agent', { session_id: 'fresh-1', agent: 'codex', repo_root: empty })).toEqual({
      ready: [],
      total_available: 0,
      empty_state:
        'No claimable plan subtasks. Publish a Queen/task plan for multi-agent work, reinforce a proposal with task_propose/task_reinforce, or use task_list only for browsing.',
      next_action: 'Publish a Queen/task plan or promote a proposal into claimable work.',
      // Nothing left out: the budget is trimmed to what was returned and its size.
      budget: { items_returned: 0, estimated_tokens_returned: expect.any(Number) },
    });
    expect((await ok('task_list', { session_id: 'fresh-1' })).coordination_warning).toBeUndefined();
  });

  it('browses without writing, then auto-claims the same pick in one call', async () => {
    await publish(repo, 'widgets', [
      subtask('Build API', ['apps/api/src/widgets.ts'], [], 'api_work'),
      subtask('Build UI', ['apps/web/src/widgets.tsx'], [], 'ui_work'),
      subtask('Verify release', ['test/widgets.test.ts'], [0, 1], 'test_work'),
    ]);
    await ok('agent_upsert_profile', { agent: 'codex', capabilities: { api_work: 0.9, ui_work: 0.3 } });
    const before = snapshot();
    const browse = await ok('task_ready_for_agent', {
      session_id: 'codex-1',
      agent: 'codex',
      repo_root: repo,
      auto_claim: false,
    });
    expect(snapshot()).toEqual(before);
    expect(browse.ready.map((e: { title: string }) => e.title)).toEqual(['Build API', 'Build UI']);
    expect(browse).toMatchObject({
      total_available: 2,
      next_tool: 'task_plan_claim_subtask',
      plan_slug: 'widgets',
      subtask_index: 0,
      reason: 'ready_high_score',
      claim_args: { plan_slug: 'widgets', subtask_index: 0, session_id: 'codex-1', agent: 'codex' },
    });
    expect(browse.codex_mcp_call).toBe(
      `mcp__colony__task_plan_claim_subtask({ agent: "codex", session_id: "codex-1", plan_slug: "widgets", subtask_index: 0 })`,
    );

    const claimed = await ok('task_ready_for_agent', { session_id: 'codex-1', agent: 'codex', repo_root: repo });
    expect(claimed.auto_claimed).toEqual({
      ok: true,
      plan_slug: 'widgets',
      subtask_index: 0,
      task_id: expect.any(Number),
      branch: 'spec/widgets/sub-0',
      file_scope: ['apps/api/src/widgets.ts'],
    });
    expect(claimed.next_action).toBe(
      'Auto-claimed widgets/sub-0: claim files before edits with task_claim_file, then post task_note_working.',
    );
    // The claim is the plan's: the sub-task is the caller's, its file claimed.
    const [plan] = await ok('task_plan_list', { repo_root: repo });
    expect(plan.subtasks[0]).toMatchObject({ status: 'claimed', claimed_by_session_id: 'codex-1' });

    // Another agent sees the claimed file as a conflict-free UI lane; the API lane is gone.
    const claude = await ok('task_ready_for_agent', {
      session_id: 'claude-1',
      agent: 'claude',
      repo_root: repo,
      auto_claim: false,
    });
    expect(claude.ready.map((e: { title: string }) => e.title)).toEqual(['Build UI']);
  });

  it('refuses bad arguments without writing', async () => {
    await refused('task_ready_for_agent', { session_id: 's', agent: 'codex', limit: 0 }, 'INVALID_PARAMETERS');
    await refused('task_ready_for_agent', { session_id: 's', agent: 'codex', repo_root: 'rel' }, 'INVALID_PARAMETERS');
    await refused('task_ready_for_agent', { session_id: 's' }, 'INVALID_PARAMETERS');
  });
});

describe('task_autopilot_tick over stdio', () => {
  it('advises claim_ready, then continue_current, counting stalled lanes with the server clock', async () => {
    const repo = repoDir('repo-tick');
    await publish(repo, 'tick', [
      subtask('Build API', ['src/api.ts']),
      subtask('Verify release', ['test/api.test.ts'], [0], 'test_work'),
    ]);
    const tick = () => ok('task_autopilot_tick', { session_id: 'codex-tick', agent: 'codex', repo_root: repo });
    const first = await tick();
    expect(first).toMatchObject({
      generated_at: clock.now(),
      decision: 'claim_ready',
      next_tool: 'task_plan_claim_subtask',
      next_args: { plan_slug: 'tick', subtask_index: 0, session_id: 'codex-tick' },
      suggested_wake_seconds: 60,
    });
    await ok(first.next_tool, first.next_args);
    expect(await tick()).toMatchObject({ decision: 'continue_current', next_tool: 'task_plan_complete_subtask' });

    // The publisher went quiet on the plan's spec thread: one stalled lane.
    clock.advance(11 * MINUTE);
    const later = await tick();
    expect(later.generated_at).toBe(clock.now());
    expect(later.signals).toMatchObject({ stalled_lane_count: 1 });
  });
});

describe('queen_plan_goal over stdio', () => {
  const goal = (repo: string, extra: Record<string, unknown> = {}) => ({
    goal_title: 'Document every MCP tool',
    problem: 'Users cannot see the complete callable surface in one place.',
    acceptance_criteria: ['Each live tool has a docs section', 'Docs coverage is tested'],
    repo_root: repo,
    affected_files: ['docs/mcp.md', 'packages/tools/src/docs.ts'],
    finalizer: 'Verify docs coverage',
    session_id: 'queen-2',
    ...extra,
  });

  it('previews with dry_run, then publishes a plan task_ready_for_agent offers', async () => {
    const repo = repoDir('repo-queen');
    const before = snapshot();
    const preview = await ok('queen_plan_goal', goal(repo, { dry_run: true }));
    expect(snapshot()).toEqual(before);
    expect(preview).toMatchObject({ dry_run: true, plan_slug: 'document-every-mcp-tool' });
    const published = await ok('queen_plan_goal', goal(repo));
    expect(published).toMatchObject({
      plan_slug: 'document-every-mcp-tool',
      mcp_capability_map: preview.mcp_capability_map,
      plan_validation: { partition_clean: true },
    });
    expect(published.subtasks).toHaveLength(preview.plan.subtasks.length);
    const ready = await ok('task_ready_for_agent', {
      session_id: 'codex-q',
      agent: 'codex',
      repo_root: repo,
      auto_claim: false,
    });
    expect(ready.ready[0]).toMatchObject({ plan_slug: 'document-every-mcp-tool', subtask_index: 0 });
  });

  it('refuses files outside the repository and missing files, writing nothing', async () => {
    const repo = repoDir('repo-queen-bad');
    await refused('queen_plan_goal', goal(repo, { affected_files: ['../../etc/passwd'] }), 'PATH_OUTSIDE_REPO');
    await refused('queen_plan_goal', goal(repo, { affected_files: [] }), 'INVALID_PARAMETERS');
  });
});
