/**
 * hivemind and hivemind_context over the real wire: a server process whose clock the
 * test drives through COLONY_CLOCK_FILE, lanes built by ordinary tool calls (threads,
 * claims, posts; any call with a session_id is a heartbeat), and one lane aged through
 * every activity class. Refusals are checked to write nothing by reading the same store.
 */
import { delimiter, join } from 'node:path';
import { type ColonyStore, countClaims, countObservations, insertObservations } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { calls, serverClock } from './_calls';
import { type Server, startServer, tempDir } from './_harness';
import { laneHelpers } from './_lanes';

const MIN = 60_000;
let server: Server;
let store: ColonyStore;
let dir: string;
let clock: ReturnType<typeof serverClock>;

const snapshot = async () => ({ observations: await countObservations(store), claims: await countClaims(store) });
const { ok, refused } = calls(() => server, snapshot);
const { repoDir, thread } = laneHelpers(ok, () => dir);

beforeAll(async () => {
  dir = tempDir();
  const db = join(dir, 'colony.db');
  const clockFile = join(dir, 'clock');
  clock = serverClock(clockFile, Date.UTC(2026, 3, 23, 8));
  server = await startServer({ db, home: dir, clockFile });
  store = await openTestStore(db);
}, 60_000);

afterAll(async () => {
  await store?.close();
  await server?.close();
});

describe('hivemind over stdio', () => {
  it('ages one lane working -> thinking -> idle -> stalled -> dead, hidden once dead', async () => {
    const repo = repoDir('repo-aging');
    const task = await thread(repo, 'agent/codex/live-task', 'codex-age', 'codex', 'Expose runtime tasks to Codex');
    await ok('task_claim_file', { task_id: task, session_id: 'codex-age', file_path: 'src/live.ts' });
    const look = async (include_stale = false) => ok('hivemind', { repo_root: repo, include_stale });
    const activity = async () => (await look(true)).sessions[0].activity;

    const working = await look();
    expect(working).toMatchObject({
      generated_at: new Date(clock.now()).toISOString(),
      repo_roots: [repo],
      session_count: 1,
      counts: { working: 1, thinking: 0, idle: 0, stalled: 0, dead: 0, unknown: 0 },
    });
    expect(working.sessions[0]).toMatchObject({
      session_id: 'codex-age',
      task_id: task,
      branch: 'agent/codex/live-task',
      task: 'Expose runtime tasks to Codex',
      agent: 'codex',
      owner: 'codex/codex',
      activity: 'working',
      source: 'colony-session',
      locked_file_count: 1,
      locked_file_preview: ['src/live.ts'],
      needs_attention: false,
    });

    clock.advance(4 * MIN);
    // A read-only call with the session id is a heartbeat too.
    await ok('task_messages', { session_id: 'codex-age', agent: 'codex' });
    clock.advance(2 * MIN);
    expect(await activity()).toBe('thinking');
    clock.advance(3 * MIN);
    expect(await activity()).toBe('idle');
    clock.advance(5 * MIN);
    const stalled = await look();
    expect(stalled.counts.stalled).toBe(1);
    expect(stalled.sessions[0]).toMatchObject({ activity: 'stalled', needs_attention: true });
    expect(stalled.sessions[0].activity_summary).toBe('Heartbeat stale for 10m 0s.');
    clock.advance(50 * MIN);
    expect(await activity()).toBe('dead');
    expect(await look()).toMatchObject({ session_count: 0, sessions: [] });
    const stale = await look(true);
    expect(stale.counts.dead).toBe(1);
    expect(stale.sessions[0]).toMatchObject({ activity: 'dead', needs_attention: true, locked_file_count: 1 });
  });

  it('shows owners, branches and locked-file previews per repository scope', async () => {
    const repo = repoDir('repo-owners');
    const other = repoDir('repo-owners-other');
    const a = await thread(repo, 'agent/codex/api', 'codex-own', 'codex', 'Ship the API');
    const b = await thread(repo, 'agent/claude/docs', 'claude-own', 'claude');
    await thread(other, 'main', 'codex-far', 'codex');
    for (const file of ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']) {
      clock.advance(1_000);
      await ok('task_claim_file', { task_id: a, session_id: 'codex-own', file_path: file });
    }
    const map = await ok('hivemind', { repo_root: repo });
    expect(map.session_count).toBe(2);
    const byTask = Object.fromEntries(map.sessions.map((s: { task_id: number }) => [s.task_id, s]));
    expect(byTask[a]).toMatchObject({
      owner: 'codex/codex',
      branch: 'agent/codex/api',
      activity: 'working',
      locked_file_count: 4,
      locked_file_preview: ['src/d.ts', 'src/c.ts', 'src/b.ts'],
    });
    expect(byTask[b]).toMatchObject({
      owner: 'claude/claude-code',
      task: 'agent/claude/docs',
      activity: 'thinking',
      locked_file_count: 0,
    });
    const both = await ok('hivemind', { repo_roots: [repo, other], limit: 2 });
    expect(both).toMatchObject({ session_count: 3, budget: { items_available: 3, items_returned: 2 } });
    expect(both.sessions).toHaveLength(2);
  });

  it('reads COLONY_HIVEMIND_REPO_ROOTS when a call names no repository', async () => {
    const repo = repoDir('repo-env');
    await thread(repo, 'main', 'codex-env', 'codex');
    const db = join(dir, 'colony.db');
    const scoped = await startServer({
      db,
      home: dir,
      clockFile: join(dir, 'clock'),
      env: { COLONY_HIVEMIND_REPO_ROOTS: [repo, repoDir('repo-env-2')].join(delimiter) },
    });
    try {
      const result = await scoped.call('hivemind', {});
      expect(result.payload).toMatchObject({ repo_roots: [repo, join(dir, 'repo-env-2')], session_count: 1 });
    } finally {
      await scoped.close();
    }
  });

  it('refuses wrong types and bad scopes with INVALID_PARAMETERS, writing nothing', async () => {
    await refused('hivemind', { limit: 'ten' }, 'INVALID_PARAMETERS');
    await refused('hivemind', { limit: 101 }, 'INVALID_PARAMETERS');
    await refused('hivemind', { repo_root: 'relative/repo' }, 'INVALID_PARAMETERS');
    await refused('hivemind', { repo_roots: [] }, 'INVALID_PARAMETERS');
    await refused('hivemind', { include_stale: 'yes' }, 'INVALID_PARAMETERS');
    await refused('hivemind', { session_id: 'codex-own', limit: 0 }, 'INVALID_PARAMETERS');
    await refused('hivemind_context', { memory_limit: 11 }, 'INVALID_PARAMETERS');
    await refused('hivemind_context', { query: 42 }, 'INVALID_PARAMETERS');
    await refused('hivemind_context', { repo_roots: '/abs/repo' }, 'INVALID_PARAMETERS');
  });
});

describe('hivemind_context over stdio', () => {
  it('adds memory hits, negative warnings and the scope attention, then points at attention_inbox', async () => {
    const repo = repoDir('repo-context');
    const task = await thread(repo, 'agent/codex/relay', 'codex-ctx', 'codex', 'Quota relay cleanup');
    await thread(repo, 'agent/codex/relay', 'claude-ctx', 'claude');
    const decision = await ok('task_post', {
      task_id: task,
      session_id: 'claude-ctx',
      kind: 'decision',
      content: 'Session takeover keeps the stale source claims until the relay is accepted.',
    });
    const warning = await ok('task_post', {
      task_id: task,
      session_id: 'claude-ctx',
      kind: 'failed_approach',
      content: 'Manual polling of the takeover source starved the writer; do not repeat manual polling.',
    });
    const message = await ok('task_message', {
      task_id: task,
      session_id: 'claude-ctx',
      agent: 'claude',
      to_agent: 'codex',
      urgency: 'blocking',
      content: 'Need the relay ids before cleanup.',
    });
    await ok('task_hand_off', {
      task_id: task,
      session_id: 'claude-ctx',
      to_agent: 'codex',
      summary: 'Take over cleanup evidence',
    });

    const ctx = await ok('hivemind_context', {
      repo_root: repo,
      query: 'session takeover stale source',
      memory_limit: 3,
      limit: 20,
    });
    expect(ctx.summary).toEqual({
      lane_count: 2,
      memory_hit_count: ctx.memory_hits.length,
      negative_warning_count: 1,
      needs_attention_count: 0,
      next_action: 'Do not choose work yet. Call attention_inbox, then task_ready_for_agent.',
      suggested_tools: ['attention_inbox', 'task_ready_for_agent'],
      must_check_attention: true,
      attention_hint:
        'Call attention_inbox to review pending handoffs, unread messages, blockers, and stalled lanes before claiming work.',
      ready_work_hint:
        'Then call task_ready_for_agent to choose claimable work. Use task_list only for browsing/debugging.',
      unread_message_count: 1,
      pending_handoff_count: 1,
      blocking: true,
      ready_work_count: 0,
    });
    expect(ctx.attention).toMatchObject({
      unread_messages: 1,
      pending_handoffs: 1,
      blocking: true,
      hydration: 'Hydrate with attention_inbox; call get_observations with observation_ids only for bodies.',
      hydrate_with: 'attention_inbox',
    });
    expect(ctx.attention.observation_ids).toContain(message.message_observation_id);
    expect(ctx.memory_hits.map((h: { id: number }) => h.id)).toContain(decision.id);
    for (const hit of ctx.memory_hits) {
      // search's compact hit: session_id and ts come with get_observations.
      expect(Object.keys(hit).sort()).toEqual(['id', 'kind', 'score', 'snippet', 'task_id']);
      expect(hit.snippet.length).toBeLessThanOrEqual(66);
    }
    expect(ctx.negative_warnings).toEqual([
      {
        id: warning.id,
        session_id: 'claude-ctx',
        kind: 'failed_approach',
        snippet: expect.stringContaining('Manual polling'),
        ts: clock.now(),
        task_id: task,
      },
    ]);
    expect(ctx.lanes).toEqual(
      expect.arrayContaining([
        {
          task_id: task,
          branch: 'agent/codex/relay',
          task: 'Quota relay cleanup',
          owner: 'codex/codex',
          activity: 'thinking',
          needs_attention: false,
        },
      ]),
    );
    expect(ctx.budget.estimated_tokens_returned).toBeLessThanOrEqual(800);
    expect(JSON.stringify(ctx)).not.toContain('starved the writer; do not repeat manual polling.');
  });

  it('takes memory hits from the newest 5,000 observations; older memory stays search’s', async () => {
    const repo = repoDir('repo-window');
    const task = await thread(repo, 'agent/claude/ledger', 'claude-win', 'claude', 'Ledger replay');
    const note = (content: string) =>
      ok('task_post', { task_id: task, session_id: 'claude-win', kind: 'note', content });
    const old = await note('Zephyr ledger replay double-counted refunds.');
    // Five thousand later observations (written straight to the store the server reads).
    const filler = Array.from({ length: 5_000 }, (_, i) => ({
      sessionId: 'claude-win',
      taskId: task,
      kind: 'note',
      content: `routine progress ${i}`,
      ts: clock.now(),
      tokenCount: 3,
    }));
    await insertObservations(store, filler);
    const recent = await note('Zephyr ledger replay fixed: refunds keyed by id.');

    const ctx = await ok('hivemind_context', { repo_root: repo, query: 'zephyr ledger', memory_limit: 5 });
    expect(ctx.memory_hits.map((h: { id: number }) => h.id)).toEqual([recent.id]);
    const hits = await ok('search', { query: 'zephyr ledger', limit: 5 });
    expect(hits.map((h: { id: number }) => h.id)).toEqual(expect.arrayContaining([old.id, recent.id]));
  });
});
