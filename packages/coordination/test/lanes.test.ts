/**
 * LaneService: the live lane map from colony's own tables (heartbeats, threads,
 * claims, edits), aged by the manual clock, and hivemind_context's compact answer.
 */
import { insertObservation, upsertSession } from '@swarm/storage';
import { HIVEMIND_NEXT_ACTION, type HivemindContextResult } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTEXT_WARNINGS } from '../src/lanes/hivemind-context';
import { createFixture, type Fixture } from './_fixture';

const MIN = 60_000;
let fx: Fixture;
let repo: string;

const join = async (session_id: string, agent: string, branch: string, title?: string, root = repo) =>
  (
    await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: root,
      branch,
      session_id,
      agent,
      ...(title ? { title } : {}),
    })
  ).task_id;
const note = (task_id: number, session_id: string, content = 'still here') =>
  fx.ok('task_post', { task_id, session_id, kind: 'note', content });

beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
});
afterEach(() => fx.close());

describe('LaneService.lanes', () => {
  it('ages one lane working -> thinking -> idle -> stalled -> dead from the clock alone', async () => {
    const task = await join('codex-1', 'codex', 'agent/codex/live-task', 'Expose runtime tasks to Codex');
    await fx.ok('task_claim_file', { task_id: task, session_id: 'codex-1', file_path: 'src/a.ts' });
    const activity = async () => (await fx.lanes.lanes({ repoRoots: [repo], includeStale: true }))[0]?.activity;
    expect(await activity()).toBe('working');
    fx.clock.advance(4 * MIN);
    await note(task, 'codex-1');
    fx.clock.advance(2 * MIN);
    expect(await activity()).toBe('thinking');
    fx.clock.advance(3 * MIN);
    expect(await activity()).toBe('idle');
    fx.clock.advance(6 * MIN);
    expect(await activity()).toBe('stalled');
    expect((await fx.lanes.lanes({ repoRoots: [repo] }))[0]?.needsAttention).toBe(true);
    fx.clock.advance(50 * MIN);
    expect(await activity()).toBe('dead');
    expect(await fx.lanes.lanes({ repoRoots: [repo] })).toEqual([]);
  });

  it('asks attention only for quiet lanes that still hold something', async () => {
    await join('codex-1', 'codex', 'agent/codex/empty');
    const held = await join('codex-2', 'codex', 'agent/codex/held');
    await fx.ok('task_claim_file', { task_id: held, session_id: 'codex-2', file_path: 'src/held.ts' });
    fx.clock.advance(12 * MIN);
    const lanes = await fx.lanes.lanes({ repoRoots: [repo] });
    expect(lanes.map((l) => [l.sessionId, l.activity, l.needsAttention])).toEqual([
      ['codex-2', 'stalled', true],
      ['codex-1', 'stalled', false],
    ]);
  });

  it('counts an edit without a claim as file work', async () => {
    const task = await join('codex-1', 'codex', 'agent/codex/x');
    fx.clock.advance(6 * MIN);
    await note(task, 'codex-1');
    expect((await fx.lanes.lanes({ repoRoots: [repo] }))[0]?.activity).toBe('thinking');
    await fx.store.write(async () => {
      upsertSession(fx.store, { id: 'codex-1', cwd: `${repo}/.worktrees/x` }, fx.clock.now());
      await insertObservation(fx.store, {
        sessionId: 'codex-1',
        taskId: task,
        kind: 'edit',
        content: 'Edit src/b.ts',
        ts: fx.clock.now(),
        tokenCount: 3,
      });
    });
    const [lane] = await fx.lanes.lanes({ repoRoots: [repo] });
    expect(lane).toMatchObject({ activity: 'working', worktreePath: `${repo}/.worktrees/x` });
  });

  it('lists owners, branches and capped locked-file previews within the scope only', async () => {
    const task = await join('codex-1', 'codex', 'agent/codex/live-task', 'Expose runtime tasks');
    const other = await join('claude-1', 'claude', 'agent/claude/docs');
    await join('codex-9', 'codex', 'agent/codex/elsewhere', undefined, fx.repo('other'));
    for (const f of ['a.ts', 'b.ts', 'c.ts', 'd.ts']) {
      fx.clock.advance(1_000);
      await fx.ok('task_claim_file', { task_id: task, session_id: 'codex-1', file_path: `src/${f}` });
    }
    const result = await fx.lanes.hivemind({ repo_root: repo, include_stale: false, limit: 50 });
    expect(result.repo_roots).toEqual([repo]);
    expect(result.session_count).toBe(2);
    expect(result.counts).toEqual({ working: 1, thinking: 1, idle: 0, stalled: 0, dead: 0, unknown: 0 });
    const byTask = new Map(result.sessions.map((s) => [s.task_id, s]));
    expect(byTask.get(task)).toMatchObject({
      session_id: 'codex-1',
      branch: 'agent/codex/live-task',
      task: 'Expose runtime tasks',
      agent: 'codex',
      owner: 'codex/codex',
      activity: 'working',
      source: 'colony-session',
      locked_file_count: 4,
      locked_file_preview: ['src/d.ts', 'src/c.ts', 'src/b.ts'],
      needs_attention: false,
      worktree_path: null,
    });
    expect(byTask.get(other)).toMatchObject({ owner: 'claude/claude-code', task: 'agent/claude/docs' });
    const both = await fx.lanes.hivemind({ repo_roots: [repo, fx.repo('other')], include_stale: false, limit: 1 });
    expect(both.session_count).toBe(3);
    expect(both.sessions).toHaveLength(1);
    expect(both.budget).toMatchObject({ items_available: 3, items_returned: 1, collapsed_count: 2 });
  });

  it('reads the default roots when a call names none', async () => {
    fx.close();
    fx = createFixture(undefined, { laneRepoRoots: ['/abs/default/../default'] });
    await join('codex-1', 'codex', 'main', undefined, '/abs/default');
    expect(await fx.lanes.hivemind({ include_stale: false, limit: 50 })).toMatchObject({
      repo_roots: ['/abs/default'],
      session_count: 1,
    });
  });
});

describe('hivemind_context', () => {
  it('returns compact lanes, memory hits, negative warnings and scope attention', async () => {
    const task = await join('codex-1', 'codex', 'agent/codex/relay', 'Quota relay cleanup');
    await join('claude-1', 'claude', 'agent/codex/relay');
    await fx.ok('task_post', {
      task_id: task,
      session_id: 'claude-1',
      kind: 'decision',
      content: 'Quota relay keeps claims fresh while the baton is pending.',
    });
    const warning = await fx.ok<{ id: number }>('task_post', {
      task_id: task,
      session_id: 'claude-1',
      kind: 'failed_approach',
      content: 'Polling the relay table every second starved the writer; do not repeat manual polling.',
    });
    await fx.ok('task_message', {
      task_id: task,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      urgency: 'blocking',
      content: 'Need the relay ids before cleanup.',
    });
    const ctx = await fx.ok<HivemindContextResult>('hivemind_context', { repo_root: repo, memory_limit: 3, limit: 20 });
    expect(ctx.summary).toMatchObject({
      lane_count: 2,
      negative_warning_count: 1,
      needs_attention_count: 0,
      next_action: HIVEMIND_NEXT_ACTION,
      suggested_tools: ['attention_inbox', 'task_ready_for_agent'],
      must_check_attention: true,
      unread_message_count: 1,
      pending_handoff_count: 0,
      blocking: true,
      ready_work_count: 0,
    });
    expect(ctx.attention).toMatchObject({ unread_messages: 1, blocking: true, hydrate_with: 'attention_inbox' });
    expect(ctx.attention.observation_ids).toHaveLength(1);
    expect(ctx.negative_warnings).toEqual([expect.objectContaining({ id: warning.id, kind: 'failed_approach' })]);
    expect(ctx.memory_hits.length).toBeGreaterThan(0);
    expect(ctx.memory_hits.map((h: { id: number }) => h.id)).not.toContain(warning.id);
    expect(ctx.lanes[0]).toEqual({
      task_id: task,
      branch: 'agent/codex/relay',
      task: 'Quota relay cleanup',
      owner: expect.any(String),
      activity: 'thinking',
      needs_attention: false,
    });
    expect(ctx.budget.estimated_tokens_returned).toBeLessThan(800);
  });

  it('collapses lanes past its token share and says so in the budget', async () => {
    for (let i = 0; i < 30; i++) await join(`codex-${i}`, 'codex', `agent/codex/lane-${i}`, `Lane number ${i} work`);
    for (const kind of ['failed_approach', 'decision', 'blocked_path', 'decision', 'conflict_warning', 'decision']) {
      const content = `The relay sweep ${kind} note: ${'a long explanation of what happened in the relay '.repeat(4)}`;
      await fx.ok('task_post', { task_id: 1, session_id: 'codex-0', kind, content });
    }
    const ctx = await fx.ok<HivemindContextResult>('hivemind_context', {
      repo_root: repo,
      query: 'relay sweep',
      limit: 20,
      memory_limit: 3,
    });
    expect(ctx.memory_hits).toHaveLength(3);
    expect(ctx.negative_warnings).toHaveLength(CONTEXT_WARNINGS);
    expect(ctx.summary.lane_count).toBe(30);
    expect(ctx.lanes.length).toBeGreaterThan(1);
    expect(ctx.lanes.length).toBeLessThan(20);
    expect(ctx.budget).toMatchObject({ hydrate_with: 'hivemind', items_available: 36 });
    // Lanes left out, and the third warning (two are listed).
    expect(ctx.budget.collapsed_count).toBe(30 - ctx.lanes.length + 1);
    expect(ctx.budget.estimated_tokens_returned).toBeLessThan(800);
  });
});
