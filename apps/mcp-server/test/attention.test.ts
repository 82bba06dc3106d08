/**
 * attention_inbox over the real wire: three agents, each in its own colony-mcp process
 * on one store, with one clock driven through COLONY_CLOCK_FILE. claude hands
 * off, sends blocking / needs_reply / fyi messages and claims a file; codex-2 claims a
 * file and goes quiet; codex-1 reads its inbox. Bad input answers INVALID_PARAMETERS
 * (or TASK_NOT_FOUND) and writes nothing.
 */
import { join } from 'node:path';
import { type ColonyStore, countBatons, countClaims, countMessages, countObservations } from '@swarm/storage';
import { ATTENTION_TOKEN_BUDGET } from '@swarm/tools';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { calls, serverClock } from './_calls';
import { type Server, serverFleet, tempDir } from './_harness';

const MINUTE = 60_000;
const fleet = serverFleet();
let claude: Server;
let codex1: Server;
let codex2: Server;
let store: ColonyStore;
let clock: ReturnType<typeof serverClock>;
let repo: string;
let task: number;

const snapshot = async () => ({
  observations: await countObservations(store),
  messages: await countMessages(store),
  batons: await countBatons(store),
  claims: await countClaims(store),
});
const as = (server: () => Server) => calls(server, snapshot);
const byClaude = as(() => claude);
const byCodex1 = as(() => codex1);
const byCodex2 = as(() => codex2);
const inbox = (extra: Record<string, unknown> = {}) =>
  byCodex1.ok('attention_inbox', { session_id: 'codex-1', agent: 'codex', repo_root: repo, ...extra });

beforeAll(async () => {
  const dir = tempDir();
  repo = join(dir, 'repo');
  const db = join(dir, 'colony.db');
  const clockFile = join(dir, 'clock');
  clock = serverClock(clockFile, Date.UTC(2026, 4, 1));
  [claude, codex1, codex2] = await Promise.all([
    fleet.start(db, dir, { clockFile }),
    fleet.start(db, dir, { clockFile }),
    fleet.start(db, dir, { clockFile }),
  ]);
  store = await openTestStore(db);
  const thread = (s: typeof byClaude, session_id: string, agent: string) =>
    s.ok('task_thread', { repo_root: repo, branch: 'main', session_id, agent, title: 'Ship the attention inbox' });
  task = (await thread(byClaude, 'claude-1', 'claude')).task_id;
  await thread(byCodex1, 'codex-1', 'codex');
  await thread(byCodex2, 'codex-2', 'codex');
  await byCodex2.ok('task_claim_file', { task_id: task, session_id: 'codex-2', file_path: 'src/b.ts' });
}, 90_000);

afterAll(async () => {
  await store?.close();
  await fleet.closeAll();
});

describe('attention_inbox over stdio, three agents in three processes', () => {
  let handoff: number;
  let blocking: number;
  let ask: number;
  let fyi: number;

  it('shows the handoff, the messages blocking first, the quiet lane, fresh claims and hot files', async () => {
    clock.advance(15 * MINUTE);
    handoff = (
      await byClaude.ok('task_hand_off', {
        task_id: task,
        session_id: 'claude-1',
        to_agent: 'codex',
        to_session_id: 'codex-1',
        summary: 'Parser landed; wire the CLI.',
        expires_in_minutes: 30,
      })
    ).handoff_observation_id;
    const send = async (urgency: string, content: string, to_session_id?: string) =>
      (
        await byClaude.ok('task_message', {
          task_id: task,
          session_id: 'claude-1',
          agent: 'claude',
          to_agent: to_session_id ? 'codex' : 'any',
          ...(to_session_id ? { to_session_id } : {}),
          urgency,
          content,
        })
      ).message_observation_id;
    fyi = await send('fyi', 'The build cache was cleared.');
    ask = await send('needs_reply', 'Can you re-run the typecheck?', 'codex-1');
    blocking = await send('blocking', 'Need PR merge evidence before cleanup.', 'codex-1');
    await byClaude.ok('task_claim_file', { task_id: task, session_id: 'claude-1', file_path: 'src/a.ts' });

    const result = await inbox();
    // Counts of 0 are left out of the answer (wakes, blockers, stale claims here).
    expect(result.summary).toEqual({
      unread_message_count: 3,
      blocking_message_count: 1,
      needs_reply_message_count: 1,
      pending_handoff_count: 1,
      stalled_lane_count: 1,
      recent_other_claim_count: 2,
      hot_file_count: 2,
      blocked: true,
      next_action: 'Reply to blocking messages before choosing work.',
    });
    // Listed by priority within the token budget: the blocking message (with every contract hint it
    // fills most of it), then what still fits; the handoff is counted and listed once the message is read.
    // A bucket with nothing listed is left out of the answer.
    expect(result).not.toHaveProperty('pending_handoffs');
    expect(result).not.toHaveProperty('stale_claim_signals');
    expect(result.unread_messages.map((m: { id: number }) => m.id)).toEqual([blocking]);
    expect(result.unread_messages[0]).toMatchObject({
      urgency: 'blocking',
      reply_tool: 'task_message',
      reply_with_tool: 'task_message',
      mark_read_tool: 'task_message_mark_read',
      mark_read_args: { message_observation_id: blocking, session_id: 'codex-1' },
      mark_read_with_args: { message_observation_id: blocking, session_id: 'codex-1' },
      suggested_reply_args: { task_id: task, reply_to: blocking, to_session_id: 'claude-1', to_agent: 'claude' },
    });
    // What else fits is a prefix of each bucket, newest claim and hottest file first.
    const claims = result.recent_other_claims.map((c: { file_path: string }) => c.file_path);
    expect(['src/a.ts', 'src/b.ts'].slice(0, claims.length)).toEqual(claims);
    expect(claims.length).toBeGreaterThan(0);
    const heat = [
      { file_path: 'src/a.ts', task_id: task, heat: 1, observation_id: expect.any(Number) },
      {
        file_path: 'src/b.ts',
        task_id: task,
        heat: Math.round(Math.SQRT1_2 * 1000) / 1000,
        observation_id: expect.any(Number),
      },
    ];
    // An empty bucket is left out of the answer, so none listed reads as missing.
    const hot = result.file_heat ?? [];
    expect(hot).toEqual(heat.slice(0, hot.length));
    expect(result.budget).toMatchObject({ items_available: 9, hydrate_with: 'get_observations' });
    expect(result.budget.collapsed_count).toBeGreaterThanOrEqual(2);
    // A few messages and a handoff stay within the startup loop's share of tokens.
    const { text } = await codex1.call('attention_inbox', { session_id: 'codex-1', agent: 'codex', repo_root: repo });
    expect(countTokens(text)).toBeLessThanOrEqual(ATTENTION_TOKEN_BUDGET);
    // The estimate counts long unbroken JSON runs slice by slice: close to, not exactly, the real count.
    expect(Math.abs(result.budget.estimated_tokens_returned - countTokens(text))).toBeLessThanOrEqual(20);
  });

  it('drops messages once read and the handoff once expired, then lists the stalled lanes', async () => {
    await byCodex1.ok('task_message_mark_read', { message_observation_id: blocking, session_id: 'codex-1' });
    const read = await inbox();
    expect(read.summary).toMatchObject({ unread_message_count: 2, blocked: false });
    expect(read.summary).not.toHaveProperty('blocking_message_count');
    expect(read.summary.next_action).toBe('Accept or decline the pending handoff before choosing work.');
    expect(read.pending_handoffs).toEqual([
      expect.objectContaining({
        id: handoff,
        accept_with: { tool: 'task_accept_handoff', args: { handoff_observation_id: handoff, session_id: 'codex-1' } },
      }),
    ]);
    clock.advance(30 * MINUTE);
    const expired = await inbox();
    expect(expired.summary).not.toHaveProperty('pending_handoff_count');
    expect(expired).not.toHaveProperty('pending_handoffs');
    expect(expired.unread_messages[0].id).toBe(ask);
    for (const id of [ask, fyi]) {
      await byCodex1.ok('task_message_mark_read', { message_observation_id: id, session_id: 'codex-1' });
    }
    // claude-1 and codex-2 have been quiet for 30 and 45 minutes, holding their claims.
    const quiet = await inbox();
    expect(quiet).not.toHaveProperty('unread_messages');
    expect(quiet.summary).toMatchObject({
      stalled_lane_count: 2,
      next_action: 'Review stalled lanes before treating the repo as idle.',
    });
    // Most recently heard from first; what the token budget leaves room for is listed.
    expect(quiet.stalled_lanes[0]).toEqual(
      expect.objectContaining({
        repo_root: repo,
        branch: 'main',
        task: 'Ship the attention inbox',
        task_id: task,
        session_id: 'claude-1',
        owner: 'claude/claude-code',
        activity: 'stalled',
        activity_summary: 'Heartbeat stale for 30m 0s.',
        live_claim_count: 1,
        next_action: 'Inspect lane evidence, then take over or ignore if already cleaned up.',
        suggested_actions: [
          expect.objectContaining({ action: 'inspect', tool: 'task_timeline', args: { task_id: task } }),
          expect.objectContaining({
            action: 'takeover',
            tool: 'rescue_stranded_run',
            args: { stranded_after_minutes: 29, confirm: true },
          }),
          expect.objectContaining({ action: 'ignore' }),
        ],
      }),
    );
    // Another agent's view: nothing addressed to it is unread; its own lane is not listed, claude's is.
    const other = await byCodex2.ok('attention_inbox', { session_id: 'codex-2', agent: 'codex', repo_root: repo });
    expect(other.summary).toMatchObject({ stalled_lane_count: 1 });
    expect(other.summary).not.toHaveProperty('unread_message_count');
    expect(other.summary).not.toHaveProperty('pending_handoff_count');
    expect(other.stalled_lanes.map((l: { session_id: string }) => l.session_id)).toEqual(['claude-1']);
  });

  it('refuses bad input with INVALID_PARAMETERS or TASK_NOT_FOUND and writes nothing', async () => {
    const base = { session_id: 'codex-1', agent: 'codex' };
    for (const bad of [
      { ...base, session_id: 42 },
      { agent: 'codex' },
      { ...base, repo_root: 'relative/path' },
      { ...base, recent_claim_limit: 0 },
      { ...base, file_heat_half_life_minutes: 'thirty' },
      { ...base, task_ids: [] },
      { ...base, task_ids: [], unknown_field: true },
    ]) {
      await byCodex1.refused('attention_inbox', bad, 'INVALID_PARAMETERS');
    }
    await byCodex1.refused('attention_inbox', { ...base, task_ids: [task, 9_999] }, 'TASK_NOT_FOUND');
  });
});
