/**
 * attention_inbox over the real services and a real SQLite file, with a manual clock:
 * handoffs and relays (wakes) hidden once expired, messages ordered blocking first and
 * dropping out once read or expired, open blockers, stalled lanes by the lanes' own
 * activity classes, fresh claims apart from the stale-claim audit, and file heat that
 * halves with every half-life. It never writes.
 */
import { countObservations, getTask } from '@swarm/storage';
import { ATTENTION_LIST_CAPS, ATTENTION_TOKEN_BUDGET, expandInbox } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NEXT_ACTIONS as ATTENTION_NEXT_ACTIONS } from '../src/attention/attention-service';
import { SWEEP_SUGGESTION } from '../src/attention/claim-signals';
import { recordEdit } from '../src/edits';
import { createTokenCounter, DEFAULT_COORDINATION_SETTINGS } from '../src/index';
import { createFixture, type Fixture, START } from './_fixture';
import { createTeam, type Team } from './_team';

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
type Inbox = any;
const MINUTE = 60_000;

let fx: Fixture;
let team: Team;
beforeEach(async () => {
  fx = createFixture();
  team = await createTeam(fx);
});
afterEach(() => fx.close());

/** The answer as sent: empty buckets and zero counts left out. */
const answer = (session_id = 'codex-1', extra: Record<string, unknown> = {}) =>
  fx.ok<Inbox>('attention_inbox', { session_id, agent: 'codex', repo_root: team.repo, ...extra });
/** The answer with every count and bucket back (expandInbox), for the bucket rules below. */
const inbox = (session_id = 'codex-1', extra: Record<string, unknown> = {}) =>
  answer(session_id, extra).then(expandInbox);
const message = (urgency: string, content: string, extra: Record<string, unknown> = {}) =>
  fx
    .ok<{ message_observation_id: number }>('task_message', {
      task_id: team.taskId,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      to_session_id: 'codex-1',
      urgency,
      content,
      ...extra,
    })
    .then((r) => r.message_observation_id);
const edit = (sessionId: string, filePath: string) => {
  const ctx = {
    store: fx.store,
    clock: fx.clock,
    tokens: createTokenCounter(),
    settings: DEFAULT_COORDINATION_SETTINGS,
  };
  const task = getTask(fx.store, team.taskId);
  if (!task) throw new Error('no task');
  return fx.store.write(async () => (await recordEdit(ctx, { sessionId, task, tool: 'Edit', filePath })).id);
};

describe('attention_inbox: empty and scope', () => {
  it('answers only blocked and the idle next action for a session not registered yet, writing nothing', async () => {
    const before = countObservations(fx.store);
    // Nothing waits: zero counts, empty buckets and the empty stale summary are left out, and
    // the budget, with nothing collapsed, is trimmed to what was returned and its size.
    const sent = await answer('nobody-yet');
    expect(sent).toEqual({
      summary: { blocked: false, next_action: ATTENTION_NEXT_ACTIONS.idle },
      budget: { items_returned: 0, estimated_tokens_returned: expect.any(Number) },
    });
    expect(sent.budget.estimated_tokens_returned).toBe(createTokenCounter().count(JSON.stringify(sent)));
    const result = expandInbox(sent);
    expect(result.summary).toEqual({
      unread_message_count: 0,
      blocking_message_count: 0,
      needs_reply_message_count: 0,
      pending_handoff_count: 0,
      pending_wake_count: 0,
      blocker_count: 0,
      stalled_lane_count: 0,
      recent_other_claim_count: 0,
      stale_claim_count: 0,
      hot_file_count: 0,
      blocked: false,
      next_action: ATTENTION_NEXT_ACTIONS.idle,
    });
    expect(result.stale_claim_signals).toEqual({
      stale_claim_count: 0,
      top_stale_branches: [],
      sweep_suggestion: null,
    });
    expect(countObservations(fx.store)).toBe(before);
  });

  it('refuses unknown task ids with TASK_NOT_FOUND, and scopes by repository', async () => {
    expect(
      await fx.fail('attention_inbox', { session_id: 'codex-1', agent: 'codex', task_ids: [team.taskId, 999] }),
    ).toMatchObject({ code: 'TASK_NOT_FOUND' });
    expect((await fx.fail('attention_inbox', { session_id: 'codex-1', agent: 'codex', repo_root: 'rel' })).code).toBe(
      'INVALID_PARAMETERS',
    );
    await message('blocking', 'stop');
    await team.claim('claude-1', 'src/a.ts');
    expect((await inbox()).summary).toMatchObject({ unread_message_count: 1, recent_other_claim_count: 1 });
    expect((await inbox('codex-1', { task_ids: [team.taskId] })).summary.unread_message_count).toBe(1);
    const elsewhere = await inbox('codex-1', { repo_root: fx.repo('other-repo') });
    expect(elsewhere.summary).toMatchObject({ unread_message_count: 0, recent_other_claim_count: 0, blocked: false });
    const both = await inbox('codex-1', { repo_root: fx.repo('other-repo'), repo_roots: [team.repo] });
    expect(both.summary.unread_message_count).toBe(1);
  });
});

describe('attention_inbox: handoffs and wakes', () => {
  it('lists a live handoff with its accept/decline calls and hides it once expired', async () => {
    const id = await team.handOff({ expires_in_minutes: 30 });
    const result = await inbox();
    expect(result.summary).toMatchObject({ pending_handoff_count: 1, next_action: ATTENTION_NEXT_ACTIONS.handoff });
    expect(result.pending_handoffs).toEqual([
      {
        id,
        task_id: team.taskId,
        from_agent: 'claude',
        summary: 'Parser landed; codex: wire the CLI.',
        expires_at: START + 30 * MINUTE,
        next: 'Accept or decline the handoff.',
        accept_with: { tool: 'task_accept_handoff', args: { handoff_observation_id: id, session_id: 'codex-1' } },
        decline_with: { tool: 'task_decline_handoff', args: { handoff_observation_id: id, session_id: 'codex-1' } },
      },
    ]);
    expect((await inbox('claude-1', { agent: 'claude' })).summary.pending_handoff_count).toBe(0);
    fx.clock.advance(30 * MINUTE);
    expect((await inbox()).summary.pending_handoff_count).toBe(0);
    expect((await inbox()).pending_handoffs).toEqual([]);
  });

  it('maps a pending relay to a wake, with its reason and the relay calls', async () => {
    const { relay_observation_id: id } = await team.relay();
    const result = await inbox();
    expect(result.summary).toMatchObject({ pending_wake_count: 1, pending_handoff_count: 0 });
    expect(result.summary.next_action).toBe(ATTENTION_NEXT_ACTIONS.wake);
    expect(result.pending_wakes).toEqual([
      expect.objectContaining({
        id,
        reason: 'quota',
        summary: 'Docs half-written; finish the relay section.',
        accept_with: { tool: 'task_accept_relay', args: { relay_observation_id: id, session_id: 'codex-1' } },
        decline_with: { tool: 'task_decline_relay', args: { relay_observation_id: id, session_id: 'codex-1' } },
      }),
    ]);
  });
});

describe('attention_inbox: messages', () => {
  it('lists blocking, then needs_reply, then fyi with every action hint, and drops read and expired ones', async () => {
    const fyi = await message('fyi', 'heads up: the build is slow today');
    const ask = await message('needs_reply', 'can you re-run the typecheck?');
    const block = await message('blocking', 'Need PR merge evidence before cleanup.', { expires_in_minutes: 10 });
    const result = await inbox();
    expect(result.summary).toMatchObject({
      unread_message_count: 3,
      blocking_message_count: 1,
      needs_reply_message_count: 1,
      blocked: true,
      next_action: ATTENTION_NEXT_ACTIONS.blocking,
    });
    const reply = {
      task_id: team.taskId,
      session_id: 'codex-1',
      agent: 'codex',
      to_agent: 'claude',
      to_session_id: 'claude-1',
      reply_to: block,
      urgency: 'fyi',
      content: '...',
    };
    const markRead = { message_observation_id: block, session_id: 'codex-1' };
    expect(result.unread_messages[0]).toEqual({
      id: block,
      task_id: team.taskId,
      ts: START,
      from_agent: 'claude',
      urgency: 'blocking',
      preview: 'Need PR merge evidence before cleanup.',
      expires_at: START + 10 * MINUTE,
      reply_tool: 'task_message',
      suggested_reply_args: reply,
      reply_args: reply,
      reply_with_tool: 'task_message',
      reply_with_args: reply,
      mark_read_tool: 'task_message_mark_read',
      mark_read_args: markRead,
      mark_read_with_tool: 'task_message_mark_read',
      mark_read_with_args: markRead,
      next_action: 'Blocking: read it (get_observations), reply with task_message using reply_to, then mark it read.',
    });

    // Expired: hidden. Then the needs_reply one leads, then (once read) the fyi one.
    fx.clock.advance(10 * MINUTE);
    const next = await inbox();
    expect(next.summary).toMatchObject({ unread_message_count: 2, blocked: false });
    expect(next.unread_messages[0]).toMatchObject({
      id: ask,
      urgency: 'needs_reply',
      next_action: 'Reply with task_message using reply_to, or mark read after reading if no reply is needed.',
    });
    await fx.ok('task_message_mark_read', { message_observation_id: ask, session_id: 'codex-1' });
    const last = await inbox();
    expect(last.unread_messages.map((m: Inbox) => m.id)).toEqual([fyi]);
    expect(last.unread_messages[0]).not.toHaveProperty('next_action');
    expect(last.summary).toMatchObject({ unread_message_count: 1, needs_reply_message_count: 0 });
  });

  it('lists by priority within the token budget and collapses the rest into counts and the budget', async () => {
    for (let i = 0; i < 4; i++) await message('fyi', `fyi ${i}`);
    await message('needs_reply', 'question');
    await team.claim('claude-1', 'src/a.ts');
    const result = await inbox();
    expect(result.summary).toMatchObject({ unread_message_count: 5, recent_other_claim_count: 1, hot_file_count: 1 });
    // The needs_reply message first; fyi ones (about 270 tokens each with their hints) do not fit beside it,
    // the small claim and hot-file entries still do.
    expect(result.unread_messages.map((m: Inbox) => m.urgency)).toEqual(['needs_reply']);
    expect(result.recent_other_claims).toHaveLength(1);
    expect(result.file_heat).toHaveLength(1);
    expect(result.budget).toMatchObject({
      items_available: 7,
      items_returned: 3,
      collapsed_count: 4,
      hydrate_with: 'get_observations',
    });
    expect(result.budget.why_collapsed).toMatch(/^Listed by priority within ~\d+ tokens/);
    expect(result.budget.estimated_tokens_returned).toBeLessThanOrEqual(ATTENTION_TOKEN_BUDGET);
    const counted = createTokenCounter().count(JSON.stringify(await answer()));
    expect(Math.abs(result.budget.estimated_tokens_returned - counted)).toBeLessThanOrEqual(20);
    // A composing surface may lift the budget: then every entry is listed up to the caps.
    const all = await fx.attention.read(
      { session_id: 'codex-1', agent: 'codex', repo_root: team.repo },
      { tokenBudget: Number.POSITIVE_INFINITY },
    );
    expect(all.unread_messages.map((m) => m.urgency)).toEqual(['needs_reply', 'fyi', 'fyi', 'fyi', 'fyi']);
    expect(all.budget).toMatchObject({ items_available: 7, items_returned: 7, collapsed_count: 0 });
    // A handoff outranks the fyi messages, and the listing caps hold whatever the budget.
    await team.handOff();
    const withHandoff = await inbox();
    expect(withHandoff.pending_handoffs).toHaveLength(1);
    expect(withHandoff.unread_messages.length).toBeLessThanOrEqual(ATTENTION_LIST_CAPS.unread_messages);
  });
});

describe('attention_inbox: blockers', () => {
  it('lists an open blocker post until someone replies to it', async () => {
    const { id } = await fx.ok<{ id: number }>('task_post', {
      task_id: team.taskId,
      session_id: 'claude-1',
      kind: 'blocker',
      content: 'CI secrets missing for the release job',
    });
    const result = await inbox();
    expect(result.summary).toMatchObject({
      blocker_count: 1,
      blocked: true,
      next_action: ATTENTION_NEXT_ACTIONS.blocker,
    });
    expect(result.blockers).toEqual([
      {
        id,
        task_id: team.taskId,
        from_session_id: 'claude-1',
        from_agent: 'claude',
        ts: START,
        preview: 'CI secrets missing for the release job',
        answer_with: {
          tool: 'task_post',
          args: { task_id: team.taskId, session_id: 'codex-1', kind: 'answer', reply_to: id, content: '...' },
        },
      },
    ]);
    await fx.ok('task_post', {
      task_id: team.taskId,
      session_id: 'codex-1',
      kind: 'answer',
      content: 'added',
      reply_to: id,
    });
    expect((await inbox()).summary).toMatchObject({ blocker_count: 0, blocked: false });
  });
});

describe('attention_inbox: claims, stalled lanes and file heat', () => {
  it('shows fresh claims of others only within the window, and stale ones only in the audit summary', async () => {
    await team.claim('claude-1', 'src/a.ts');
    await team.claim('codex-1', 'src/mine.ts');
    const fresh = await inbox();
    expect(fresh.recent_other_claims).toEqual([
      {
        task_id: team.taskId,
        file_path: 'src/a.ts',
        session_id: 'claude-1',
        agent: 'claude',
        claimed_at: START,
        observation_id: expect.any(Number),
      },
    ]);
    fx.clock.advance(31 * MINUTE);
    expect((await inbox()).recent_other_claims).toEqual([]);
    expect((await inbox('codex-1', { recent_claim_window_minutes: 60 })).recent_other_claims).toHaveLength(1);
    fx.clock.advance(30 * MINUTE);
    const stale = await inbox('codex-1', { recent_claim_window_minutes: 120 });
    expect(stale.recent_other_claims).toEqual([]);
    expect(stale.stale_claim_signals).toEqual({
      stale_claim_count: 2,
      top_stale_branches: [{ branch: 'main', task_id: team.taskId, stale_claim_count: 2 }],
      sweep_suggestion: SWEEP_SUGGESTION,
    });
  });

  it('lists another session quiet while holding claims as a stalled, then dead, lane', async () => {
    await team.claim('claude-1', 'src/a.ts');
    fx.clock.advance(5 * MINUTE);
    expect((await inbox()).summary.stalled_lane_count).toBe(0);
    fx.clock.advance(10 * MINUTE);
    const stalled = await inbox();
    expect(stalled.summary).toMatchObject({ stalled_lane_count: 1, next_action: ATTENTION_NEXT_ACTIONS.stalled });
    expect(stalled.stalled_lanes).toEqual([
      {
        repo_root: team.repo,
        branch: 'main',
        task: 'main',
        task_id: team.taskId,
        owner: 'claude/claude-code',
        session_id: 'claude-1',
        activity: 'stalled',
        activity_summary: 'Heartbeat stale for 15m 0s.',
        worktree_path: null,
        live_claim_count: 1,
        plan_subtask: null,
        observation_id: expect.any(Number),
        next_action: 'Inspect lane evidence, then take over or ignore if already cleaned up.',
        suggested_actions: [
          expect.objectContaining({ action: 'inspect', tool: 'task_timeline', args: { task_id: team.taskId } }),
          expect.objectContaining({
            action: 'takeover',
            tool: 'rescue_stranded_run',
            args: { stranded_after_minutes: 14, confirm: true },
          }),
          expect.objectContaining({ action: 'ignore' }),
        ],
      },
    ]);
    // The takeover call it suggests does rescue this lane.
    const scan = await fx.ok<{ stranded: Array<{ session_id: string }> }>('rescue_stranded_scan', {
      stranded_after_minutes: 14,
    });
    expect(scan.stranded.map((s) => s.session_id)).toContain('claude-1');
    fx.clock.advance(50 * MINUTE);
    expect((await inbox()).stalled_lanes[0]).toMatchObject({ activity: 'dead', session_id: 'claude-1' });
    // The reader's own quiet lane is never listed.
    expect((await inbox('claude-1', { agent: 'claude' })).summary.stalled_lane_count).toBe(0);
  });

  it('does not count a quiet session whose claims wait on a handoff', async () => {
    await team.claim('claude-1', 'src/a.ts');
    await team.handOff({ transferred_files: ['src/a.ts'], expires_in_minutes: 120 });
    fx.clock.advance(20 * MINUTE);
    expect((await inbox()).summary.stalled_lane_count).toBe(0);
  });

  it('computes file heat from edits and live claims, halving with every half-life', async () => {
    await edit('claude-1', 'src/hot.ts');
    await edit('codex-2', 'src/hot.ts');
    const warm = await edit('claude-1', 'src/warm.ts');
    const now = await inbox();
    expect(now.file_heat).toEqual([
      { file_path: 'src/hot.ts', task_id: team.taskId, heat: 2, observation_id: expect.any(Number) },
      { file_path: 'src/warm.ts', task_id: team.taskId, heat: 1, observation_id: warm },
    ]);
    fx.clock.advance(30 * MINUTE);
    expect((await inbox()).file_heat.map((h: Inbox) => h.heat)).toEqual([1, 0.5]);
    fx.clock.advance(30 * MINUTE);
    expect((await inbox()).file_heat.map((h: Inbox) => h.heat)).toEqual([0.5, 0.25]);
    expect((await inbox('codex-1', { file_heat_half_life_minutes: 60 })).file_heat.map((h: Inbox) => h.heat)).toEqual([
      1, 0.5,
    ]);
    expect((await inbox('codex-1', { file_heat_limit: 1 })).file_heat).toHaveLength(1);
    expect((await inbox()).summary.hot_file_count).toBe(2);
    // Past six half-lives nothing is left.
    fx.clock.advance(4 * 30 * MINUTE + 1);
    expect((await inbox()).file_heat).toEqual([]);
  });

  it('adds a live claim as heat by its last refresh', async () => {
    await team.claim('claude-1', 'src/claimed.ts');
    fx.clock.advance(30 * MINUTE);
    expect((await inbox()).file_heat).toEqual([
      { file_path: 'src/claimed.ts', task_id: team.taskId, heat: 0.5, observation_id: expect.any(Number) },
    ]);
  });
});
