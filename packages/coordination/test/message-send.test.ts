/**
 * task_message: the body is a searchable `message` observation and the row carries
 * addressing and lifecycle; replies flip only their immediate parent, and only when a
 * recipient answers; refusals write nothing.
 */
import { getObservation, getTask } from '@swarm/storage';
import { MAX_CONTENT_CHARS } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Fixture, START } from './_fixture';
import { freshThreads, inbox, post, row, send, type Threads, written } from './_messages';

let fx: Fixture;
let t: Threads;
beforeEach(async () => {
  ({ fx, t } = await freshThreads());
});
afterEach(() => fx.close());

describe('task_message', () => {
  it('broadcasts with urgency fyi by default, body in an observation and lifecycle in a row', async () => {
    fx.clock.advance(500);
    const before = written(fx);
    const sent = await fx.ok('task_message', {
      task_id: t.main,
      session_id: 'claude-1',
      agent: 'claude',
      content: 'lexer benchmarks regressed on main',
    });
    expect(sent).toEqual({ message_observation_id: expect.any(Number), status: 'unread' });
    const id = sent.message_observation_id as number;
    expect(written(fx)).toEqual({ observations: before.observations + 1, messages: before.messages + 1 });
    expect(getObservation(fx.store, id)).toMatchObject({
      kind: 'message',
      taskId: t.main,
      sessionId: 'claude-1',
      content: 'lexer benchmarks regressed on main',
      replyTo: null,
      ts: START + 500,
      metadata: { from_agent: 'claude', to_agent: 'any', to_session_id: null, urgency: 'fyi', expires_at: null },
    });
    expect(row(fx, id)).toEqual({
      id,
      taskId: t.main,
      fromSessionId: 'claude-1',
      fromAgent: 'claude',
      toAgent: 'any',
      toSessionId: null,
      urgency: 'fyi',
      status: 'unread',
      replyTo: null,
      createdAt: START + 500,
      expiresAt: null,
      statusChangedAt: START + 500,
      claimedBySessionId: null,
      claimedByAgent: null,
      claimedAt: null,
    });
    expect(getTask(fx.store, t.main)?.updatedAt).toBe(START + 500);
    const hits = await fx.ok<Array<{ id: number; kind: string }>>('search', { query: 'lexer benchmarks regressed' });
    expect(hits.map((h) => [h.id, h.kind])).toContainEqual([id, 'message']);
  });

  it('stores a TTL as expires_at from expires_in_minutes, and addressing as given', async () => {
    const id = await send(fx, t.main, {
      to_agent: 'codex',
      to_session_id: 'codex-1',
      urgency: 'blocking',
      expires_in_minutes: 90,
    });
    expect(row(fx, id)).toMatchObject({
      toAgent: 'codex',
      toSessionId: 'codex-1',
      urgency: 'blocking',
      expiresAt: START + 90 * 60_000,
    });
  });

  it('refuses bad input with a code and writes nothing', async () => {
    const note = await post(fx, t.main, 'claude-1', 'a note, not a message');
    const otherNote = await post(fx, t.other, 'cursor-9', 'elsewhere');
    const elsewhere = await send(fx, t.other, { session_id: 'cursor-9', agent: 'cursor' });
    const retracted = await send(fx, t.main);
    await fx.ok('task_message_retract', { message_observation_id: retracted, session_id: 'claude-1' });
    const base = { task_id: t.main, session_id: 'claude-1', agent: 'claude', content: 'hi' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ task_id: 9999 }, 'TASK_NOT_FOUND'],
      [{ session_id: 'ghost' }, 'NOT_PARTICIPANT'],
      [{ session_id: 'cursor-9', agent: 'cursor' }, 'NOT_PARTICIPANT'],
      [{ content: 'x'.repeat(MAX_CONTENT_CHARS + 1) }, 'INVALID_PARAMETERS'],
      [{ content: '' }, 'INVALID_PARAMETERS'],
      [{ to_agent: 'cursor' }, 'INVALID_PARAMETERS'],
      [{ urgency: 'urgent' }, 'INVALID_PARAMETERS'],
      [{ expires_in_minutes: 0 }, 'INVALID_PARAMETERS'],
      [{ expires_in_minutes: 43_201 }, 'INVALID_PARAMETERS'],
      [{ to_session_id: 'claude-1' }, 'INVALID_PARAMETERS'],
      [{ to_session_id: 'ghost' }, 'SESSION_NOT_FOUND'],
      [{ reply_to: 999_999 }, 'NOT_MESSAGE'],
      [{ reply_to: note }, 'NOT_MESSAGE'],
      [{ reply_to: elsewhere }, 'TASK_MISMATCH'],
      [{ reply_to: otherNote }, 'OBSERVATION_NOT_ON_TASK'],
      [{ reply_to: retracted, session_id: 'codex-1', agent: 'codex' }, 'ALREADY_RETRACTED'],
    ];
    const before = written(fx);
    for (const [override, code] of cases) {
      const error = await fx.fail('task_message', { ...base, ...override });
      expect(error.code, JSON.stringify(override)).toBe(code);
    }
    expect(written(fx)).toEqual(before);
  });
});

describe('task_message replies', () => {
  it("flips the immediate parent to 'replied' when a recipient answers", async () => {
    const question = await send(fx, t.main, { to_agent: 'codex', urgency: 'needs_reply' });
    fx.clock.advance(1000);
    const answer = await send(fx, t.main, {
      session_id: 'codex-1',
      agent: 'codex',
      to_session_id: 'claude-1',
      reply_to: question,
      content: 'typecheck is green',
    });
    expect(row(fx, question)).toMatchObject({ status: 'replied', statusChangedAt: START + 1000 });
    expect(getObservation(fx.store, answer)?.replyTo).toBe(question);
    expect(row(fx, answer)).toMatchObject({ status: 'unread', replyTo: question });
  });

  it('flips only the immediate parent, never an ancestor', async () => {
    const root = await send(fx, t.main, { to_session_id: 'codex-1' });
    // codex-2 is not a recipient of root: its reply chains without answering it.
    const aside = await send(fx, t.main, {
      session_id: 'codex-2',
      agent: 'codex',
      to_session_id: 'claude-1',
      reply_to: root,
    });
    expect(row(fx, root).status).toBe('unread');
    await send(fx, t.main, { reply_to: aside, content: 'thanks' });
    expect(row(fx, aside).status).toBe('replied');
    expect(row(fx, root).status).toBe('unread');
  });

  it('does not answer a message when its own sender follows up', async () => {
    const first = await send(fx, t.main, { to_agent: 'codex' });
    await send(fx, t.main, { to_agent: 'codex', reply_to: first, content: 'also: the lint step' });
    expect(row(fx, first).status).toBe('unread');
  });

  it('claims a still-unclaimed broadcast for the replier, and hides it from the others', async () => {
    const broadcast = await send(fx, t.main, { content: 'who can take the flaky test?' });
    fx.clock.advance(10);
    const reply = await send(fx, t.main, { session_id: 'codex-1', agent: 'codex', reply_to: broadcast });
    expect(row(fx, broadcast)).toMatchObject({
      status: 'replied',
      claimedBySessionId: 'codex-1',
      claimedByAgent: 'codex',
      claimedAt: START + 10,
    });
    expect(getObservation(fx.store, reply)?.metadata).toMatchObject({ claimed_reply_to: true });
    const seen = await inbox(fx, 'codex-2', 'codex', { unread_only: false });
    expect(seen.map((e) => e.id)).not.toContain(broadcast);
    const claimer = await inbox(fx, 'codex-1', 'codex', { unread_only: false });
    expect(claimer.find((e) => e.id === broadcast)).toMatchObject({
      status: 'replied',
      claimed_by_session_id: 'codex-1',
      is_claimable_broadcast: false,
    });
  });

  it('chains a reply to an expired parent without reviving or claiming it', async () => {
    const broadcast = await send(fx, t.main, { expires_in_minutes: 5 });
    fx.clock.advance(5 * 60_000);
    await send(fx, t.main, { session_id: 'codex-1', agent: 'codex', reply_to: broadcast });
    expect(row(fx, broadcast)).toMatchObject({ status: 'unread', claimedBySessionId: null });
    const error = await fx.fail('task_message_mark_read', { message_observation_id: broadcast, session_id: 'codex-2' });
    expect(error.code).toBe('MESSAGE_EXPIRED');
  });
});
