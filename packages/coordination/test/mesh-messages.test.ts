/**
 * Seed-001 agent messages through the real registry: direct messages and broadcasts
 * (one read flag per recipient), the inbox filters, mark_as_read, read confirmations,
 * threads that only their members add to, and refusals that write nothing.
 */
import { countMeshMessages } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';

let fx: Fixture;
afterEach(() => fx.close());

interface Inbox {
  messages: Array<Record<string, unknown>>;
  count: number;
  marked_read: number;
  unread_remaining: number;
}

const send = (from_agent: string, to_agent: string, message: string, extra: Record<string, unknown> = {}) =>
  fx.ok('send_message_to_agent', { from_agent, to_agent, message, ...extra });
const broadcast = (from_agent: string, to_agents: string[], message: string, extra: Record<string, unknown> = {}) =>
  fx.ok('broadcast_message_to_agents', { from_agent, to_agents, message, ...extra });
const inbox = (agent_name: string, extra: Record<string, unknown> = {}) =>
  fx.ok<Inbox>('get_messages_from_agents', { agent_name, ...extra });
const bodies = (box: Inbox) => box.messages.map((m) => m.message);

describe('send_message_to_agent', () => {
  it('delivers a direct message with the defaults, recorded as an observation', async () => {
    fx = createFixture();
    const before = fx.observations();
    const sent = await send('TaskManager', 'DataProcessor', 'Please process the new user data file');
    expect(sent).toEqual({
      success: true,
      message_id: expect.any(Number),
      to_agent: 'DataProcessor',
      thread_id: null,
      created_at: START,
    });
    expect(fx.observations()).toBe(before + 1);
    expect(await inbox('DataProcessor')).toEqual({
      success: true,
      messages: [
        {
          message_id: sent.message_id,
          from_agent: 'TaskManager',
          message: 'Please process the new user data file',
          message_type: 'info',
          priority: 'normal',
          thread_id: null,
          requires_confirmation: false,
          read: false,
          created_at: START,
        },
      ],
      count: 1,
      marked_read: 0,
      unread_remaining: 1,
    });
    expect((await inbox('TaskManager')).count).toBe(0);
    const body = await fx.ok<Array<{ kind: string; content: string }>>('get_observations', {
      ids: [sent.message_id],
    });
    expect(body[0]).toMatchObject({ kind: 'agent-message', content: 'Please process the new user data file' });
  });

  it('refuses bad names and bad arguments, writing nothing', async () => {
    fx = createFixture();
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ from_agent: '', to_agent: 'B', message: 'hi' }, 'INVALID_AGENT', 'from_agent'],
      [{ from_agent: 'A', to_agent: 'B\n', message: 'hi' }, 'INVALID_AGENT', 'to_agent'],
      [{ from_agent: 'A', to_agent: 'B', message: '' }, 'INVALID_PARAMETERS'],
      [{ from_agent: 'A', to_agent: 'B', message: 'hi', priority: 'critical' }, 'INVALID_PARAMETERS'],
      [{ from_agent: 'A', to_agent: 'B', message: 'hi', message_type: 'gossip' }, 'INVALID_PARAMETERS'],
      [{ from_agent: 'A', to_agent: 'B', message: 'x'.repeat(70_000) }, 'INVALID_PARAMETERS'],
      [{ from_agent: 'A', to_agent: 'B', message: 'hi', thread_id: 'thread-99' }, 'INVALID_PARAMETERS'],
    ];
    const before = fx.observations();
    for (const [args, code, field] of cases) {
      const refused = await fx.fail('send_message_to_agent', args);
      expect(refused.error_code, JSON.stringify(args).slice(0, 80)).toBe(code);
      if (field) expect(refused.field).toBe(field);
    }
    expect(countMeshMessages(fx.store)).toEqual({ messages: 0, recipients: 0 });
    expect(fx.observations()).toBe(before);
  });
});

describe('get_messages_from_agents', () => {
  it('filters by priority, type, thread and sender, oldest first, up to limit', async () => {
    fx = createFixture();
    await send('A', 'P', 'a-info');
    fx.clock.advance(1);
    await send('A', 'P', 'a-task-high', { message_type: 'task', priority: 'high' });
    fx.clock.advance(1);
    await send('B', 'P', 'b-task-high', { message_type: 'task', priority: 'high', thread_id: 'ingest' });
    fx.clock.advance(1);
    await send('B', 'P', 'b-question', { message_type: 'question', priority: 'urgent', thread_id: 'ingest' });
    await send('B', 'Q', 'for someone else', { thread_id: 'ingest' });
    expect(bodies(await inbox('P'))).toEqual(['a-info', 'a-task-high', 'b-task-high', 'b-question']);
    expect(bodies(await inbox('P', { priority: 'high', message_type: 'task' }))).toEqual([
      'a-task-high',
      'b-task-high',
    ]);
    expect(bodies(await inbox('P', { thread_id: 'ingest' }))).toEqual(['b-task-high', 'b-question']);
    expect(bodies(await inbox('P', { from_agent: 'A' }))).toEqual(['a-info', 'a-task-high']);
    expect(bodies(await inbox('P', { from_agent: 'B', priority: 'urgent' }))).toEqual(['b-question']);
    expect(bodies(await inbox('P', { limit: 2 }))).toEqual(['a-info', 'a-task-high']);
    expect((await fx.fail('get_messages_from_agents', { agent_name: 'P', limit: 0 })).error_code).toBe(
      'INVALID_PARAMETERS',
    );
    expect((await fx.fail('get_messages_from_agents', { agent_name: 'P', from_agent: '' })).error_code).toBe(
      'INVALID_AGENT',
    );
  });

  it('marks what it returns as read only when asked, and unread_only skips it next time', async () => {
    fx = createFixture();
    for (const n of [1, 2, 3]) await send('A', 'P', `m${n}`);
    expect(await inbox('P', { unread_only: true, limit: 2 })).toMatchObject({ count: 2, marked_read: 0 });
    const first = await inbox('P', { unread_only: true, limit: 2, mark_as_read: true });
    expect(first).toMatchObject({ count: 2, marked_read: 2, unread_remaining: 1 });
    expect(first.messages.map((m) => m.read)).toEqual([false, false]);
    const second = await inbox('P', { unread_only: true, mark_as_read: true });
    expect(bodies(second)).toEqual(['m3']);
    expect(second).toMatchObject({ marked_read: 1, unread_remaining: 0 });
    expect((await inbox('P', { unread_only: true })).count).toBe(0);
    expect((await inbox('P')).messages.map((m) => m.read)).toEqual([true, true, true]);
  });

  it('sends the sender one confirmation when a message requiring it is first read', async () => {
    fx = createFixture();
    const sent = await send('TaskManager', 'DataProcessor', 'Please process the file', {
      message_type: 'task',
      priority: 'high',
      requires_confirmation: true,
      thread_id: 'files',
    });
    expect((await inbox('TaskManager')).count).toBe(0);
    await inbox('DataProcessor');
    expect((await inbox('TaskManager')).count, 'reading without mark_as_read confirms nothing').toBe(0);
    await inbox('DataProcessor', { mark_as_read: true });
    await inbox('DataProcessor', { mark_as_read: true });
    const confirmations = await inbox('TaskManager');
    expect(confirmations.messages).toEqual([
      {
        message_id: expect.any(Number),
        from_agent: 'DataProcessor',
        message: `Read confirmation: DataProcessor read message ${sent.message_id}.`,
        message_type: 'info',
        priority: 'normal',
        thread_id: 'files',
        requires_confirmation: false,
        read: false,
        created_at: START,
        confirms_message_id: sent.message_id,
      },
    ]);
  });
});

describe('broadcast_message_to_agents', () => {
  it('sends one message with a read flag per recipient', async () => {
    fx = createFixture();
    const sent = await broadcast(
      'SystemManager',
      ['DataProcessor', 'FileHandler', 'Logger', 'Logger'],
      'Maintenance at 3 PM',
      {
        message_type: 'info',
        priority: 'normal',
      },
    );
    expect(sent).toEqual({
      success: true,
      message_id: expect.any(Number),
      recipients: ['DataProcessor', 'FileHandler', 'Logger'],
      count: 3,
      thread_id: null,
      created_at: START,
    });
    expect(countMeshMessages(fx.store)).toEqual({ messages: 1, recipients: 3 });
    await inbox('FileHandler', { mark_as_read: true });
    expect((await inbox('FileHandler', { unread_only: true })).count).toBe(0);
    for (const agent of ['DataProcessor', 'Logger']) {
      expect(bodies(await inbox(agent, { unread_only: true })), agent).toEqual(['Maintenance at 3 PM']);
    }
  });

  it('creates a thread that recipients answer in, and outsiders cannot join', async () => {
    fx = createFixture();
    const sent = await broadcast('Lead', ['Dev', 'QA'], 'Release plan?', { create_thread: true });
    expect(sent.thread_id).toBe(`thread-${sent.message_id}`);
    await send('Dev', 'Lead', 'Ready on my side', { thread_id: sent.thread_id });
    await broadcast('QA', ['Lead', 'Dev'], 'Tests green', { thread_id: sent.thread_id, message_type: 'result' });
    expect(bodies(await inbox('Lead', { thread_id: sent.thread_id }))).toEqual(['Ready on my side', 'Tests green']);
    const outsider = await fx.fail('send_message_to_agent', {
      from_agent: 'Mallory',
      to_agent: 'Lead',
      message: 'let me in',
      thread_id: sent.thread_id,
    });
    expect(outsider).toMatchObject({ success: false, error_code: 'ACCESS_DENIED', thread_id: sent.thread_id });
    const viaBroadcast = await fx.fail('broadcast_message_to_agents', {
      from_agent: 'Mallory',
      to_agents: ['Dev'],
      message: 'me too',
      thread_id: sent.thread_id,
    });
    expect(viaBroadcast.error_code).toBe('ACCESS_DENIED');
    expect(countMeshMessages(fx.store)).toEqual({ messages: 3, recipients: 5 });
  });

  it('starts a thread of a caller-chosen id, and refuses create_thread with thread_id', async () => {
    fx = createFixture();
    expect(await broadcast('Lead', ['Dev'], 'kickoff', { thread_id: 'project-alpha' })).toMatchObject({
      thread_id: 'project-alpha',
    });
    const both = await fx.fail('broadcast_message_to_agents', {
      from_agent: 'Lead',
      to_agents: ['Dev'],
      message: 'x',
      create_thread: true,
      thread_id: 'project-alpha',
    });
    expect(both.error_code).toBe('INVALID_PARAMETERS');
    for (const to_agents of [[], ['Dev', ''], Array.from({ length: 101 }, (_, i) => `a${i}`)]) {
      const refused = await fx.fail('broadcast_message_to_agents', { from_agent: 'Lead', to_agents, message: 'x' });
      expect(refused.error_code, String(to_agents.length)).toBe(
        to_agents.length === 2 ? 'INVALID_AGENT' : 'INVALID_PARAMETERS',
      );
    }
    expect(countMeshMessages(fx.store)).toEqual({ messages: 1, recipients: 1 });
  });
});
