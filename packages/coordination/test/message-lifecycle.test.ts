/**
 * The message lifecycle after sending: mark read (with its receipt), expiry on the
 * clock, retraction by the sender, and claiming a broadcast. Every refusal answers
 * its contract code and writes nothing.
 */
import { getObservation } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Fixture, START } from './_fixture';
import { freshThreads, inbox, post, row, send, type Threads, written } from './_messages';

let fx: Fixture;
let t: Threads;
beforeEach(async () => {
  ({ fx, t } = await freshThreads());
});
afterEach(() => fx.close());

const markRead = (id: number, session_id: string, extra: Record<string, unknown> = {}) =>
  fx.ok<{ status: string }>('task_message_mark_read', { message_observation_id: id, session_id, ...extra });

/** Calls a tool that must refuse with `code`, and checks that it wrote nothing. */
async function refuses(tool: string, args: Record<string, unknown>, code: string): Promise<void> {
  const before = written(fx);
  const error = await fx.fail(tool, args);
  expect(error.code, `${tool} ${JSON.stringify(args)}: ${error.error}`).toBe(code);
  expect(written(fx)).toEqual(before);
}

async function latestOf(kind: string) {
  const timeline = await fx.ok<Array<{ id: number; kind: string }>>('task_timeline', { task_id: t.main });
  const entry = timeline.find((e) => e.kind === kind);
  return entry ? getObservation(fx.store, entry.id) : undefined;
}

describe('task_message_mark_read', () => {
  it('marks an unread message read once and leaves the sender a receipt', async () => {
    const id = await send(fx, t.main, { to_agent: 'codex', urgency: 'needs_reply' });
    fx.clock.advance(250);
    const before = written(fx);
    expect(await markRead(id, 'codex-1')).toEqual({ status: 'read' });
    expect(written(fx)).toEqual({ ...before, observations: before.observations + 1 });
    expect(row(fx, id)).toMatchObject({ status: 'read', statusChangedAt: START + 250 });
    expect(await latestOf('message_read')).toMatchObject({
      sessionId: 'codex-1',
      taskId: t.main,
      replyTo: id,
      ts: START + 250,
      metadata: { message_id: id, from_session_id: 'claude-1', read_by_agent: 'codex', urgency: 'needs_reply' },
    });
    const after = written(fx);
    expect(await markRead(id, 'codex-1')).toEqual({ status: 'read' });
    expect(await markRead(id, 'codex-1', { task_id: t.main })).toEqual({ status: 'read' });
    expect(written(fx)).toEqual(after);
  });

  it("answers 'replied' for an answered message without writing", async () => {
    const id = await send(fx, t.main, { to_session_id: 'codex-1' });
    await send(fx, t.main, { session_id: 'codex-1', agent: 'codex', reply_to: id });
    const before = written(fx);
    expect(await markRead(id, 'codex-1')).toEqual({ status: 'replied' });
    expect(written(fx)).toEqual(before);
  });

  it('refuses sessions the message is not for', async () => {
    const direct = await send(fx, t.main, { to_session_id: 'codex-1' });
    const forCodex = await send(fx, t.main, { to_agent: 'codex' });
    const broadcast = await send(fx, t.main);
    await fx.ok('task_message_claim', { message_observation_id: broadcast, session_id: 'codex-1', agent: 'codex' });
    const ref = (id: number, session_id: string) => ({ message_observation_id: id, session_id });
    await refuses('task_message_mark_read', ref(direct, 'codex-2'), 'NOT_TARGET_SESSION');
    await refuses('task_message_mark_read', ref(direct, 'claude-1'), 'NOT_TARGET_SESSION');
    await refuses('task_message_mark_read', ref(broadcast, 'codex-2'), 'NOT_TARGET_SESSION');
    await refuses('task_message_mark_read', ref(forCodex, 'claude-1'), 'NOT_TARGET_SESSION');
    const claudeToo = await send(fx, t.main, { session_id: 'codex-1', agent: 'codex', to_agent: 'codex' });
    await refuses('task_message_mark_read', ref(claudeToo, 'claude-1'), 'NOT_TARGET_AGENT');
    await refuses('task_message_mark_read', ref(direct, 'cursor-9'), 'NOT_PARTICIPANT');
    await refuses('task_message_mark_read', ref(direct, 'ghost'), 'NOT_PARTICIPANT');
    expect(await markRead(broadcast, 'codex-1')).toEqual({ status: 'read' });
  });

  it('refuses ids that are not messages, or not on the task named', async () => {
    const id = await send(fx, t.main, { to_agent: 'codex' });
    const note = await post(fx, t.other, 'cursor-9', 'not a message');
    const ref = { session_id: 'codex-1' };
    await refuses('task_message_mark_read', { ...ref, message_observation_id: 999_999 }, 'NOT_MESSAGE');
    await refuses('task_message_mark_read', { ...ref, message_observation_id: note }, 'NOT_MESSAGE');
    await refuses('task_message_mark_read', { ...ref, message_observation_id: id, task_id: t.other }, 'TASK_MISMATCH');
    await refuses(
      'task_message_mark_read',
      { ...ref, message_observation_id: note, task_id: t.main },
      'OBSERVATION_NOT_ON_TASK',
    );
  });

  it('answers MESSAGE_EXPIRED past the TTL, flipping the status once and for good', async () => {
    const id = await send(fx, t.main, { to_agent: 'codex', expires_in_minutes: 30 });
    fx.clock.advance(30 * 60_000);
    const before = written(fx);
    expect((await fx.fail('task_message_mark_read', { message_observation_id: id, session_id: 'codex-1' })).code).toBe(
      'MESSAGE_EXPIRED',
    );
    expect(row(fx, id)).toMatchObject({ status: 'expired', statusChangedAt: START + 30 * 60_000 });
    fx.clock.advance(60_000);
    expect((await fx.fail('task_message_mark_read', { message_observation_id: id, session_id: 'codex-2' })).code).toBe(
      'MESSAGE_EXPIRED',
    );
    expect(row(fx, id).statusChangedAt).toBe(START + 30 * 60_000);
    expect(written(fx)).toEqual(before);
    const all = await inbox(fx, 'codex-1', 'codex', { unread_only: false });
    expect(all.map((e) => e.status)).toEqual(['expired']);
  });

  it('reads a message just before its TTL', async () => {
    const id = await send(fx, t.main, { to_agent: 'codex', expires_in_minutes: 30 });
    fx.clock.advance(30 * 60_000 - 1);
    expect(await markRead(id, 'codex-1')).toEqual({ status: 'read' });
    fx.clock.advance(10 * 60_000);
    expect(await markRead(id, 'codex-1')).toEqual({ status: 'read' });
  });

  it('refuses a retracted message', async () => {
    const id = await send(fx, t.main, { to_agent: 'codex' });
    await fx.ok('task_message_retract', { message_observation_id: id, session_id: 'claude-1' });
    await refuses('task_message_mark_read', { message_observation_id: id, session_id: 'codex-1' }, 'ALREADY_RETRACTED');
  });
});

describe('task_message_retract', () => {
  it('retracts an unanswered message, keeping its body searchable and in the timeline', async () => {
    const id = await send(fx, t.main, { to_agent: 'codex', content: 'deploy the staging cluster now' });
    await markRead(id, 'codex-1');
    fx.clock.advance(5);
    const result = await fx.ok('task_message_retract', {
      message_observation_id: id,
      session_id: 'claude-1',
      reason: 'duplicate of #498',
    });
    expect(result).toEqual({ status: 'retracted' });
    expect(row(fx, id)).toMatchObject({ status: 'retracted', statusChangedAt: START + 5 });
    expect(await latestOf('message_retract')).toMatchObject({
      sessionId: 'claude-1',
      replyTo: id,
      content: `retracted message #${id}: duplicate of #498`,
      metadata: { message_id: id, reason: 'duplicate of #498' },
    });
    const hits = await fx.ok<Array<{ id: number }>>('search', { query: 'deploy staging cluster' });
    expect(hits.map((h) => h.id)).toContain(id);
    const [body] = await fx.ok<Array<{ content: string }>>('get_observations', { ids: [id] });
    expect(body?.content).toBe('deploy the staging cluster now');
    expect(await inbox(fx, 'codex-1', 'codex', { unread_only: false })).toEqual([]);
  });

  it('retracts an expired message', async () => {
    const id = await send(fx, t.main, { expires_in_minutes: 1 });
    fx.clock.advance(120_000);
    await fx.fail('task_message_mark_read', { message_observation_id: id, session_id: 'codex-1' });
    expect(await fx.ok('task_message_retract', { message_observation_id: id, session_id: 'claude-1' })).toEqual({
      status: 'retracted',
    });
  });

  it('refuses non-senders, answered and retracted messages, and ids off the task', async () => {
    const id = await send(fx, t.main, { to_agent: 'codex' });
    const answered = await send(fx, t.main, { to_agent: 'codex' });
    await send(fx, t.main, { session_id: 'codex-1', agent: 'codex', reply_to: answered });
    const ref = (message_observation_id: number, session_id = 'claude-1') => ({ message_observation_id, session_id });
    await refuses('task_message_retract', ref(id, 'codex-1'), 'NOT_SENDER');
    await refuses('task_message_retract', ref(id, 'ghost'), 'NOT_SENDER');
    await refuses('task_message_retract', ref(answered), 'ALREADY_REPLIED');
    await refuses('task_message_retract', ref(999_999), 'NOT_MESSAGE');
    await refuses('task_message_retract', { ...ref(id), task_id: t.other }, 'TASK_MISMATCH');
    await refuses('task_message_retract', { ...ref(id), reason: 'x'.repeat(501) }, 'INVALID_PARAMETERS');
    await fx.ok('task_message_retract', ref(id));
    await refuses('task_message_retract', ref(id), 'ALREADY_RETRACTED');
  });
});

describe('task_message_claim', () => {
  const claim = (id: number, session_id: string, agent = 'codex') =>
    fx.ok('task_message_claim', { message_observation_id: id, session_id, agent });

  it('claims a broadcast once; the claimer asking again gets the same answer', async () => {
    const id = await send(fx, t.main, { urgency: 'needs_reply' });
    fx.clock.advance(77);
    const before = written(fx);
    const claimed = await claim(id, 'codex-1');
    expect(claimed).toEqual({
      status: 'claimed',
      claimed_by_session_id: 'codex-1',
      claimed_by_agent: 'codex',
      claimed_at: START + 77,
    });
    expect(written(fx)).toEqual({ ...before, observations: before.observations + 1 });
    expect(await latestOf('message_claim')).toMatchObject({
      sessionId: 'codex-1',
      replyTo: id,
      metadata: { message_id: id, claimed_by_agent: 'codex' },
    });
    fx.clock.advance(1000);
    const after = written(fx);
    expect(await claim(id, 'codex-1')).toEqual(claimed);
    expect(written(fx)).toEqual(after);
    await refuses(
      'task_message_claim',
      { message_observation_id: id, session_id: 'codex-2', agent: 'codex' },
      'ALREADY_CLAIMED',
    );
    expect(row(fx, id).status).toBe('unread');
  });

  it('refuses directed messages, the sender, outsiders, and dead broadcasts', async () => {
    const toAgent = await send(fx, t.main, { to_agent: 'codex' });
    const toSession = await send(fx, t.main, { to_session_id: 'codex-1' });
    const broadcast = await send(fx, t.main);
    const retracted = await send(fx, t.main);
    await fx.ok('task_message_retract', { message_observation_id: retracted, session_id: 'claude-1' });
    const expiring = await send(fx, t.main, { expires_in_minutes: 1 });
    fx.clock.advance(60_000);
    const ref = (id: number, session_id = 'codex-1', agent = 'codex') => ({
      message_observation_id: id,
      session_id,
      agent,
    });
    await refuses('task_message_claim', ref(999_999), 'NOT_MESSAGE');
    await refuses('task_message_claim', ref(toAgent), 'NOT_BROADCAST');
    await refuses('task_message_claim', ref(toSession), 'NOT_BROADCAST');
    await refuses('task_message_claim', ref(broadcast, 'claude-1', 'claude'), 'NOT_TARGET_SESSION');
    await refuses('task_message_claim', ref(broadcast, 'cursor-9', 'cursor'), 'NOT_PARTICIPANT');
    await refuses('task_message_claim', ref(retracted), 'ALREADY_RETRACTED');
    await refuses('task_message_claim', ref(expiring), 'MESSAGE_EXPIRED');
    expect(await claim(broadcast, 'codex-1')).toMatchObject({ status: 'claimed' });
  });
});

describe('MessageService.markReadAll (the runtime mailbox consume)', () => {
  it('marks every message of the batch read in one write, each with its receipt', async () => {
    const a = await send(fx, t.main, { to_session_id: 'codex-1', content: 'one' });
    const b = await send(fx, t.main, { to_session_id: 'codex-1', content: 'two', urgency: 'blocking' });
    const before = written(fx);
    expect(await fx.messages.markReadAll({ session_id: 'codex-1', message_observation_ids: [a, b] })).toEqual([
      { id: a, status: 'read', newly_read: true },
      { id: b, status: 'read', newly_read: true },
    ]);
    expect(written(fx)).toEqual({ observations: before.observations + 2, messages: before.messages });
    expect(await inbox(fx, 'codex-1', 'codex')).toEqual([]);
    // Asked again: already read, nothing newly read, nothing written.
    expect(await fx.messages.markReadAll({ session_id: 'codex-1', message_observation_ids: [a] })).toEqual([
      { id: a, status: 'read', newly_read: false },
    ]);
  });

  it('a refusal for any id rolls back the whole batch: every message stays unread', async () => {
    const a = await send(fx, t.main, { to_session_id: 'codex-1', content: 'one' });
    const notTheirs = await send(fx, t.main, { to_session_id: 'codex-2', content: 'for codex-2' });
    const b = await send(fx, t.main, { to_session_id: 'codex-1', content: 'two' });
    const before = written(fx);
    await expect(
      fx.messages.markReadAll({ session_id: 'codex-1', message_observation_ids: [a, notTheirs, b] }),
    ).rejects.toThrow(expect.objectContaining({ code: 'NOT_TARGET_SESSION' }));
    expect(written(fx)).toEqual(before);
    expect([row(fx, a).status, row(fx, b).status, row(fx, notTheirs).status]).toEqual(['unread', 'unread', 'unread']);
  });

  it('a retracted or expired message in the batch comes back with its status and is not read', async () => {
    const kept = await send(fx, t.main, { to_session_id: 'codex-1', content: 'kept' });
    const gone = await send(fx, t.main, { to_session_id: 'codex-1', content: 'gone' });
    const late = await send(fx, t.main, { to_session_id: 'codex-1', content: 'late', expires_in_minutes: 1 });
    await fx.ok('task_message_retract', { message_observation_id: gone, session_id: 'claude-1' });
    fx.clock.advance(2 * 60_000);
    expect(
      await fx.messages.markReadAll({ session_id: 'codex-1', message_observation_ids: [kept, gone, late] }),
    ).toEqual([
      { id: kept, status: 'read', newly_read: true },
      { id: gone, status: 'retracted', newly_read: false },
      { id: late, status: 'expired', newly_read: false },
    ]);
    expect(row(fx, late).status).toBe('expired');
  });
});
