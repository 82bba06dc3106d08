/**
 * task_ready_for_agent: claimable plan sub-tasks ranked for one agent, with exact claim
 * calls, and the unambiguous top pick claimed in the same call (auto_claim).
 */
import { countObservations, countSubtaskClaims } from '@swarm/storage';
import { READY_BLOCKED_ACTION, READY_EMPTY_STATE, READY_FILE_PREVIEW, READY_NO_PLAN_ACTION } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';
import { claimArgs, completeArgs, publish, subtask } from './_plans';

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
type Ready = any;

let fx: Fixture;
let repo: string;
beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
});
afterEach(() => fx.close());

const ready = (session_id: string, agent: string, extra: Record<string, unknown> = {}) =>
  fx.ok<Ready>('task_ready_for_agent', { session_id, agent, repo_root: repo, ...extra });
const browse = (session_id: string, agent: string, extra: Record<string, unknown> = {}) =>
  ready(session_id, agent, { auto_claim: false, ...extra });
/** The budget of an answer that left nothing out: trimmed to what was returned and its size. */
const whole = (n: number) => ({ items_returned: n, estimated_tokens_returned: expect.any(Number) });
const written = () => ({ observations: countObservations(fx.store), claims: countSubtaskClaims(fx.store) });

/** Two independent lanes (api, ui) and a finalizer on both. */
const twoLanes = (extra: Record<string, unknown> = {}) =>
  publish(fx, repo, {
    slug: 'lanes',
    subtasks: [
      subtask('Build API', ['apps/api/src/widgets.ts'], [], { capability_hint: 'api_work' }),
      subtask('Build UI', ['apps/web/src/widgets.tsx'], [], { capability_hint: 'ui_work' }),
      subtask('Verify release', ['test/widgets.test.ts'], [0, 1], { capability_hint: 'test_work' }),
    ],
    ...extra,
  });

describe('task_ready_for_agent without plans', () => {
  it('answers the empty state and the publish hint, writing nothing', async () => {
    const before = written();
    expect(await ready('codex-1', 'codex')).toEqual({
      ready: [],
      total_available: 0,
      empty_state: READY_EMPTY_STATE,
      next_action: READY_NO_PLAN_ACTION,
      budget: whole(0),
    });
    expect(written()).toEqual(before);
  });
});

describe('task_ready_for_agent with a published plan', () => {
  beforeEach(async () => {
    await publish(fx, repo);
  });

  it('lists only unblocked work, with exact claim args and the codex call, when browsing', async () => {
    const before = written();
    const result = await browse('codex-1', 'codex');
    // The top pick's call is the same minimal exact call as its entry's.
    const claim_args = { plan_slug: 'add-widget-page', subtask_index: 0, session_id: 'codex-1', agent: 'codex' };
    const codex_mcp_call = `mcp__colony__task_plan_claim_subtask({ agent: "codex", session_id: "codex-1", plan_slug: "add-widget-page", subtask_index: 0 })`;
    const next_action_reason =
      'Claim add-widget-page/sub-0: it is unclaimed, dependencies are met, and it is the highest-ranked claimable ready item.';
    const entryArgs = claim_args;
    expect(result).toEqual({
      ready: [
        {
          priority: expect.any(Number),
          plan_slug: 'add-widget-page',
          subtask_index: 0,
          wave_index: 0,
          wave_name: 'Wave 1',
          blocked_by_count: 0,
          title: 'Prepare storage',
          capability_hint: 'infra_work',
          file_scope: ['packages/storage/src/widgets.ts'],
          fit_score: 0.5,
          reason: 'ready_high_score',
          reasoning: 'unblocks 3',
          // The entry's own call: minimal and exact (the claim takes the sub-task's scope).
          next_tool: 'task_plan_claim_subtask',
          claim_args: entryArgs,
          codex_mcp_call: `mcp__colony__task_plan_claim_subtask({ agent: "codex", session_id: "codex-1", plan_slug: "add-widget-page", subtask_index: 0 })`,
          next_action_reason: '#1: unclaimed, deps met.',
        },
      ],
      total_available: 1,
      next_tool: 'task_plan_claim_subtask',
      plan_slug: 'add-widget-page',
      subtask_index: 0,
      reason: 'ready_high_score',
      assigned_agent: 'codex',
      routing_reason: 'your infra_work weight 0.5 fits',
      next_action_reason,
      claim_args,
      codex_mcp_call,
      next_action: `Call task_plan_claim_subtask with plan_slug="add-widget-page", subtask_index=0.`,
      budget: whole(1),
    });
    expect(written()).toEqual(before);
    // The entry's claim args are accepted as they are, and claim the whole scope.
    expect(await fx.ok('task_plan_claim_subtask', entryArgs)).toMatchObject({
      file_scope: ['packages/storage/src/widgets.ts'],
    });
  });

  it('claims the top pick in the same call by default, then says to continue it', async () => {
    const result = await ready('codex-1', 'codex');
    expect(result.auto_claimed).toEqual({
      ok: true,
      plan_slug: 'add-widget-page',
      subtask_index: 0,
      task_id: expect.any(Number),
      branch: 'spec/add-widget-page/sub-0',
      file_scope: ['packages/storage/src/widgets.ts'],
    });
    expect(result.next_action).toBe(
      'Auto-claimed add-widget-page/sub-0: claim files before edits with task_claim_file, then post task_note_working.',
    );
    expect(result.next_tool).toBeUndefined();
    expect(result.ready[0]).toMatchObject({ subtask_index: 0, reason: 'continue_current_task' });
    expect(result.ready[0].claim_args).toBeUndefined();
    expect(result.total_available).toBe(0);
    expect(countSubtaskClaims(fx.store, 'active')).toBe(1);

    const again = await ready('codex-1', 'codex');
    expect(again.auto_claimed).toBeUndefined();
    expect(again.ready.map((e: Ready) => [e.subtask_index, e.reason])).toEqual([[0, 'continue_current_task']]);
    expect(again.next_action).toMatch(
      /^Continue claimed sub-task add-widget-page\/sub-0; call task_plan_complete_subtask/,
    );
    expect(countSubtaskClaims(fx.store, 'active')).toBe(1);
  });

  it('keeps the empty state but points at dependencies when later waves are blocked', async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex'));
    expect(await ready('claude-1', 'claude')).toEqual({
      ready: [],
      total_available: 0,
      empty_state: READY_EMPTY_STATE,
      next_action: READY_BLOCKED_ACTION,
      budget: whole(0),
    });
  });

  it('offers the next wave once its dependencies complete', async () => {
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex'));
    await fx.ok('task_plan_complete_subtask', completeArgs(0, 'codex-1'));
    const result = await browse('claude-1', 'claude');
    expect(result.ready.map((e: Ready) => [e.subtask_index, e.wave_name])).toEqual([
      [1, 'Wave 2'],
      [2, 'Wave 2'],
    ]);
    expect(result.total_available).toBe(2);
  });

  it('only looks at plans of repo_root when given', async () => {
    const other = fx.repo('other');
    expect(
      (await fx.ok<Ready>('task_ready_for_agent', { session_id: 's', agent: 'codex', repo_root: other })).ready,
    ).toEqual([]);
    expect(
      (await fx.ok<Ready>('task_ready_for_agent', { session_id: 's', agent: 'codex', auto_claim: false })).ready,
    ).toHaveLength(1);
  });
});

describe('task_ready_for_agent ranking', () => {
  it('ranks by the capability profile of the caller', async () => {
    await twoLanes();
    await fx.ok('agent_upsert_profile', { agent: 'codex', capabilities: { api_work: 0.9, ui_work: 0.2 } });
    await fx.ok('agent_upsert_profile', { agent: 'claude', capabilities: { api_work: 0.3, ui_work: 0.8 } });
    expect((await browse('codex-1', 'codex')).ready.map((e: Ready) => e.title)).toEqual(['Build API', 'Build UI']);
    expect((await browse('claude-1', 'claude')).ready.map((e: Ready) => e.title)).toEqual(['Build UI', 'Build API']);
  });

  it('lowers sub-tasks whose files others hold, and does not auto-claim a contested pick', async () => {
    await publish(fx, repo, {
      slug: 'solo',
      subtasks: [
        subtask('Build API', ['apps/api/src/widgets.ts']),
        subtask('Verify release', ['test/w.test.ts'], [0], { capability_hint: 'test_work' }),
      ],
    });
    const { task_id } = await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch: 'hotfix',
      session_id: 'claude-1',
      agent: 'claude',
    });
    await fx.ok('task_claim_file', { task_id, session_id: 'claude-1', file_path: 'apps/api/src/widgets.ts' });
    const before = written();
    const result = await ready('codex-1', 'codex');
    expect(result.auto_claimed).toBeUndefined();
    expect(result.ready[0].conflicts).toEqual([
      { file_path: 'apps/api/src/widgets.ts', session_id: 'claude-1', agent: 'claude' },
    ]);
    expect(result.ready[0].reasoning).toContain('1 file(s) claimed by others');
    expect(result.next_action).toContain('First coordinate: apps/api/src/widgets.ts is claimed by claude-1 (claude)');
    expect(result.next_tool).toBe('task_plan_claim_subtask');
    expect(written()).toEqual(before);
  });

  it('prefers uncontested work over contested work of the same fit', async () => {
    await twoLanes();
    const { task_id } = await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch: 'hotfix',
      session_id: 'claude-1',
      agent: 'claude',
    });
    await fx.ok('task_claim_file', { task_id, session_id: 'claude-1', file_path: 'apps/api/src/widgets.ts' });
    const result = await ready('codex-1', 'codex');
    expect(result.ready.map((e: Ready) => e.title)).toEqual(['Build UI', 'Build API']);
    expect(result.auto_claimed).toMatchObject({ ok: true, subtask_index: 1 });
  });

  it('routes a pick to a better-fitting agent who is around instead of claiming it', async () => {
    await publish(fx, repo, {
      slug: 'ui-only',
      subtasks: [
        subtask('Build UI', ['apps/web/src/widgets.tsx'], [], { capability_hint: 'ui_work' }),
        subtask('Verify release', ['test/w.test.ts'], [0], { capability_hint: 'test_work' }),
      ],
    });
    await fx.ok('agent_upsert_profile', { agent: 'claude', capabilities: { ui_work: 0.9 } });
    await fx.ok('task_thread', { repo_root: repo, branch: 'main', session_id: 'claude-1', agent: 'claude' });
    const before = written();
    const result = await ready('codex-1', 'codex');
    expect(result.auto_claimed).toBeUndefined();
    expect(result).toMatchObject({
      plan_slug: 'ui-only',
      subtask_index: 0,
      assigned_agent: 'claude',
      routing_reason: 'claude fits ui_work at 0.9 vs your 0.5',
    });
    expect(result.next_tool).toBeUndefined();
    expect(result.next_action).toMatch(/^Route ui-only\/sub-0 to claude: /);
    // Still claimable by hand; the entry says who it is routed to, and why.
    expect(result.ready[0].claim_args).toMatchObject({ plan_slug: 'ui-only', subtask_index: 0 });
    expect(result.ready[0]).toMatchObject({
      assigned_agent: 'claude',
      routing_reason: 'claude fits ui_work at 0.9 vs your 0.5',
      next_action_reason: 'Routed to claude; claim only if none takes it.',
    });
    expect(written()).toEqual(before);
  });

  it('puts a sub-task with a blocking message for the caller first (urgent_override)', async () => {
    const published = await twoLanes();
    await fx.ok('agent_upsert_profile', { agent: 'codex', capabilities: { api_work: 1, ui_work: 0.5 } });
    const uiBranch = published.subtasks[1]?.branch as string;
    const ui = await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch: uiBranch,
      session_id: 'codex-1',
      agent: 'codex',
    });
    await fx.ok('task_thread', { repo_root: repo, branch: uiBranch, session_id: 'claude-1', agent: 'claude' });
    await fx.ok('task_message', {
      task_id: ui.task_id,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      urgency: 'blocking',
      content: 'the UI lane blocks the demo; take it first',
    });
    const result = await browse('codex-1', 'codex');
    expect(result.ready.map((e: Ready) => [e.title, e.reason])).toEqual([
      ['Build UI', 'urgent_override'],
      ['Build API', 'ready_high_score'],
    ]);
    expect(result.next_action_reason).toBe('Claim lanes/sub-1: a blocking message on its thread overrides other work.');
  });

  it('caps the list at limit and refuses bad arguments', async () => {
    await twoLanes();
    expect((await browse('codex-1', 'codex', { limit: 1 })).ready).toHaveLength(1);
    for (const bad of [{ limit: 0 }, { limit: 21 }, { repo_root: 'relative/path' }, { auto_claim: 'yes' }]) {
      expect((await fx.fail('task_ready_for_agent', { session_id: 's', agent: 'codex', ...bad })).code).toBe(
        'INVALID_PARAMETERS',
      );
    }
  });

  it('keeps entries compact: capped scope and title, repo_root only for a slug of several repositories', async () => {
    const files = Array.from({ length: 7 }, (_, i) => `apps/api/src/widgets/part-${i}.ts`);
    const longTitle = `Build the widget API ${'with every endpoint '.repeat(8)}`.trim();
    const lanes = (root: string) =>
      publish(fx, root, {
        slug: 'lanes',
        subtasks: [
          subtask(longTitle, files, [], { capability_hint: 'api_work' }),
          subtask('Build UI', ['apps/web/src/widgets.tsx'], [], { capability_hint: 'ui_work' }),
          subtask('Verify release', ['test/widgets.test.ts'], [0, 1], { capability_hint: 'test_work' }),
        ],
      });
    await lanes(repo);
    const alone = await browse('codex-1', 'codex', { limit: 1 });
    const [entry] = alone.ready;
    expect(entry.file_scope).toEqual(files.slice(0, READY_FILE_PREVIEW));
    expect(entry.file_scope_total).toBe(7);
    expect(entry.title.length).toBeLessThanOrEqual(80);
    expect(entry.title.endsWith('…')).toBe(true);
    expect(entry.claim_args).not.toHaveProperty('repo_root');
    // The top pick's own call is as minimal: the slug is unique, so no repo_root; no file list.
    expect(alone.claim_args).toEqual(entry.claim_args);
    expect(alone.codex_mcp_call).toBe(entry.codex_mcp_call);
    expect(alone.budget).toMatchObject({ items_available: 2, items_returned: 1, collapsed_count: 1 });
    expect(alone.budget.why_collapsed).toEqual(expect.any(String));

    // The same slug in another repository: entries name repo_root, so the call stays exact.
    await lanes(fx.repo('other'));
    const both = await browse('codex-1', 'codex', { limit: 1 });
    expect(both.ready[0].claim_args).toEqual({
      repo_root: repo,
      plan_slug: 'lanes',
      subtask_index: 0,
      session_id: 'codex-1',
      agent: 'codex',
    });
    expect(both.ready[0].codex_mcp_call).toContain(`repo_root: ${JSON.stringify(repo)}`);
    expect(both.claim_args).toEqual(both.ready[0].claim_args);
    expect(await fx.ok('task_plan_claim_subtask', both.ready[0].claim_args)).toMatchObject({ file_scope: files });
  });
});
