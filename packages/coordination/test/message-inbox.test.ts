/**
 * task_messages: who sees what (addressing, own messages, other threads, retracted
 * messages, claimed broadcasts), the TTL as the clock moves, the exact compact entry
 * and its action hints; and the urgent-unread query a session-start preface uses.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Fixture, START } from './_fixture';
import { freshThreads, ids, inbox, row, send, type Threads, written } from './_messages';

let fx: Fixture;
let t: Threads;
beforeEach(async () => {
  ({ fx, t } = await freshThreads());
});
afterEach(() => fx.close());

describe('task_messages', () => {
  it('lists what is addressed to you, newest first: your session, your agent, or any', async () => {
    const toSession = await send(fx, t.main, { to_session_id: 'codex-1' });
    fx.clock.advance(1);
    const toOtherSession = await send(fx, t.main, { to_session_id: 'codex-2' });
    fx.clock.advance(1);
    const toAgent = await send(fx, t.main, { to_agent: 'codex' });
    fx.clock.advance(1);
    const toClaude = await send(fx, t.main, { session_id: 'codex-2', agent: 'codex', to_agent: 'claude' });
    fx.clock.advance(1);
    const broadcast = await send(fx, t.main);
    fx.clock.advance(1);
    const own = await send(fx, t.main, { session_id: 'codex-1', agent: 'codex' });
    const elsewhere = await send(fx, t.other, { session_id: 'cursor-9', agent: 'cursor' });

    expect(ids(await inbox(fx, 'codex-1', 'codex'))).toEqual([broadcast, toAgent, toSession]);
    expect(ids(await inbox(fx, 'codex-2', 'codex'))).toEqual([own, broadcast, toAgent, toOtherSession]);
    expect(ids(await inbox(fx, 'claude-1', 'claude'))).toEqual([elsewhere, own, toClaude]);
    expect(ids(await inbox(fx, 'claude-1', 'claude', { task_ids: [t.main] }))).toEqual([own, toClaude]);
    expect(ids(await inbox(fx, 'cursor-9', 'cursor'))).toEqual([]);
  });

  it('narrows by since_ts and limit', async () => {
    const first = await send(fx, t.main);
    fx.clock.advance(100);
    const second = await send(fx, t.main);
    fx.clock.advance(100);
    const third = await send(fx, t.main);
    expect(ids(await inbox(fx, 'codex-1', 'codex', { since_ts: START }))).toEqual([third, second]);
    expect(ids(await inbox(fx, 'codex-1', 'codex', { limit: 1 }))).toEqual([third]);
    expect(ids(await inbox(fx, 'codex-1', 'codex', { since_ts: START - 1 }))).toEqual([third, second, first]);
  });

  it('answers the contract entry exactly (null fields left out), with a compact preview and reply hints', async () => {
    fx.clock.advance(42);
    const long = `${'the websocket reconnect backoff doubles forever '.repeat(10)}END`;
    const id = await send(fx, t.main, {
      to_agent: 'codex',
      urgency: 'needs_reply',
      expires_in_minutes: 60,
      content: long,
    });
    const [entry] = await inbox(fx, 'codex-1', 'codex');
    expect(entry).toEqual({
      id,
      task_id: t.main,
      ts: START + 42,
      from_session_id: 'claude-1',
      from_agent: 'claude',
      to_agent: 'codex',
      urgency: 'needs_reply',
      status: 'unread',
      preview: expect.stringMatching(/^the websocket reconnect backoff doubles forever .*…$/),
      expires_at: START + 42 + 3_600_000,
      is_claimable_broadcast: false,
      reply_tool: 'task_message',
      suggested_reply_args: {
        task_id: t.main,
        session_id: 'codex-1',
        agent: 'codex',
        to_agent: 'claude',
        to_session_id: 'claude-1',
        reply_to: id,
        urgency: 'fyi',
        content: '...',
      },
      mark_read_tool: 'task_message_mark_read',
    });
    expect(entry?.preview.length).toBe(120);
    expect(entry?.preview).not.toContain('END');
  });

  it('marks broadcasts claimable until claimed, and never marks read by listing', async () => {
    const broadcast = await send(fx, t.main);
    const before = written(fx);
    const [entry] = await inbox(fx, 'codex-1', 'codex');
    expect(entry).toMatchObject({ id: broadcast, is_claimable_broadcast: true, status: 'unread' });
    await inbox(fx, 'codex-1', 'codex', { unread_only: false });
    expect(written(fx)).toEqual(before);
    expect(row(fx, broadcast).status).toBe('unread');
  });

  it('hides read messages by default and shows their status with unread_only: false', async () => {
    const id = await send(fx, t.main, { to_session_id: 'codex-1' });
    await fx.ok('task_message_mark_read', { message_observation_id: id, session_id: 'codex-1' });
    expect(await inbox(fx, 'codex-1', 'codex')).toEqual([]);
    const all = await inbox(fx, 'codex-1', 'codex', { unread_only: false });
    expect(all.map((e) => [e.id, e.status])).toEqual([[id, 'read']]);
  });

  it('hides an unread message past its TTL, and shows it as expired before anything rewrote it', async () => {
    const id = await send(fx, t.main, { to_agent: 'codex', expires_in_minutes: 10 });
    fx.clock.advance(10 * 60_000 - 1);
    expect(ids(await inbox(fx, 'codex-1', 'codex'))).toEqual([id]);
    fx.clock.advance(1);
    expect(await inbox(fx, 'codex-1', 'codex')).toEqual([]);
    const all = await inbox(fx, 'codex-1', 'codex', { unread_only: false });
    expect(all.map((e) => [e.id, e.status, e.is_claimable_broadcast])).toEqual([[id, 'expired', false]]);
    expect(row(fx, id).status).toBe('unread');
  });

  it('drops retracted messages from every view, and claimed broadcasts from all but the claimer', async () => {
    const retracted = await send(fx, t.main, { to_agent: 'codex' });
    await fx.ok('task_message_retract', { message_observation_id: retracted, session_id: 'claude-1' });
    const claimed = await send(fx, t.main);
    await fx.ok('task_message_claim', { message_observation_id: claimed, session_id: 'codex-2', agent: 'codex' });
    expect(await inbox(fx, 'codex-1', 'codex', { unread_only: false })).toEqual([]);
    const claimer = await inbox(fx, 'codex-2', 'codex', { unread_only: false });
    expect(claimer.map((e) => [e.id, e.claimed_by_session_id, e.claimed_by_agent])).toEqual([
      [claimed, 'codex-2', 'codex'],
    ]);
  });

  it('answers an unknown session the messages of its agent, and refuses bad input', async () => {
    expect(await fx.ok('task_messages', { session_id: 'ghost', agent: 'nobody' })).toEqual([]);
    expect((await fx.fail('task_messages', { session_id: 'codex-1', agent: 'codex', limit: 0 })).code).toBe(
      'INVALID_PARAMETERS',
    );
  });
});

describe('MessageService.urgentUnread', () => {
  it('returns unread, unexpired blocking then needs_reply messages addressed to the session', async () => {
    const fyi = await send(fx, t.main, { to_agent: 'codex' });
    const needsReply = await send(fx, t.main, { to_agent: 'codex', urgency: 'needs_reply' });
    fx.clock.advance(1);
    const newerNeedsReply = await send(fx, t.main, { to_session_id: 'codex-1', urgency: 'needs_reply' });
    const blocking = await send(fx, t.main, { urgency: 'blocking' });
    const expiring = await send(fx, t.main, { urgency: 'blocking', expires_in_minutes: 1 });
    const read = await send(fx, t.main, { to_session_id: 'codex-1', urgency: 'blocking' });
    await fx.ok('task_message_mark_read', { message_observation_id: read, session_id: 'codex-1' });
    const forOther = await send(fx, t.main, { to_session_id: 'codex-2', urgency: 'blocking' });
    fx.clock.advance(60_000);

    const urgent = await fx.messages.urgentUnread({ sessionId: 'codex-1', agent: 'codex' });
    expect(ids(urgent)).toEqual([blocking, newerNeedsReply, needsReply]);
    expect(ids(urgent)).not.toContain(fyi);
    expect(ids(urgent)).not.toContain(expiring);
    expect(ids(urgent)).not.toContain(forOther);
    expect(ids(await fx.messages.urgentUnread({ sessionId: 'codex-1', agent: 'codex', limit: 2 }))).toEqual([
      blocking,
      newerNeedsReply,
    ]);
    expect(ids(await fx.messages.urgentUnread({ sessionId: 'codex-1' }))).toEqual(ids(urgent));
    expect(await fx.messages.urgentUnread({ sessionId: 'nobody', agent: 'codex' })).toEqual([]);
    expect(await fx.messages.urgentUnread({ sessionId: 'nobody' })).toEqual([]);
  });
});
