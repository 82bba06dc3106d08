/**
 * The hooks' preface and reminders over the real services: messages sent with
 * task_message show up in the session-start preface as MessageService lists them
 * (blocking first, reply call included, fyi only counted), and the prompt reminder
 * fires only for what arrived since the agent last looked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_COORDINATION_SETTINGS, estimatingTokenCounter, HookService, serviceAttention } from '../src/index';
import { createFixture, type Fixture } from './_fixture';

const REPO = '/abs/repo';
const base = (session_id: string) => ({ session_id, cwd: REPO });

let fx: Fixture;
let hooks: HookService;
let taskId: number;

const send = async (content: string, urgency: string) =>
  (
    await fx.ok<{ message_observation_id: number }>('task_message', {
      task_id: taskId,
      session_id: 'codex-c1',
      agent: 'codex',
      to_agent: 'claude',
      urgency,
      content,
    })
  ).message_observation_id;

beforeEach(async () => {
  fx = createFixture();
  const ctx = {
    store: fx.store,
    clock: fx.clock,
    tokens: estimatingTokenCounter(),
    settings: DEFAULT_COORDINATION_SETTINGS,
  };
  hooks = new HookService(ctx, {
    tasks: fx.tasks,
    locateRepo: async () => ({ root: REPO, branch: 'main' }),
    attention: serviceAttention({ messages: fx.messages }),
  });
  taskId = (
    await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: REPO,
      branch: 'main',
      session_id: 'codex-c1',
      agent: 'codex',
    })
  ).task_id;
});
afterEach(() => fx.close());

describe('session-start preface over MessageService', () => {
  it('lists blocking then needs_reply messages with their reply call, and counts fyi', async () => {
    const question = await send('can you re-run the typecheck?', 'needs_reply');
    fx.clock.advance(60_000);
    const stop = await send('stop editing src/lexer.ts, I am moving it', 'blocking');
    await send('bumped the deps', 'fyi');
    const { context = '' } = await hooks.sessionStart('claude-code', base('k1'));
    const lines = context.split('\n');
    expect(lines[2]).toBe('BLOCKING messages for you:');
    expect(lines[3]).toBe(
      `- #${stop} on task #${taskId} from codex just now: stop editing src/lexer.ts, I am moving it | reply: task_message ` +
        JSON.stringify({
          task_id: taskId,
          session_id: 'claude-k1',
          agent: 'claude',
          to_agent: 'codex',
          to_session_id: 'codex-c1',
          reply_to: stop,
          urgency: 'fyi',
          content: '...',
        }),
    );
    expect(lines[4]).toBe('Messages needing your reply:');
    expect(lines[5]).toMatch(
      new RegExp(`^- #${question} on task #${taskId} from codex 1m ago: can you re-run the typecheck\\?`),
    );
    expect(lines[6]).toBe('1 unread fyi message: task_messages');
  });

  it('a message marked read no longer shows', async () => {
    const stop = await send('stop', 'blocking');
    await hooks.sessionStart('claude-code', base('k1'));
    await fx.ok('task_message_mark_read', { message_observation_id: stop, session_id: 'claude-k1' });
    const { context = '' } = await hooks.sessionStart('claude-code', base('k1'));
    expect(context).not.toContain(`#${stop}`);
  });
});

describe('prompt reminder over MessageService', () => {
  it('stays quiet for what the preface showed, and names what arrived since', async () => {
    await send('stop', 'blocking');
    fx.clock.advance(1000);
    await hooks.sessionStart('claude-code', base('k1'));
    fx.clock.advance(1000);
    expect((await hooks.userPromptSubmit('claude-code', { ...base('k1'), prompt: 'go' })).context).toBeUndefined();
    fx.clock.advance(1000);
    await send('wait, one more thing', 'blocking');
    await send('question?', 'needs_reply');
    await send('fyi only', 'fyi');
    fx.clock.advance(1000);
    expect((await hooks.userPromptSubmit('claude-code', { ...base('k1'), prompt: 'go' })).context).toBe(
      'colony: new for you: 1 blocking message, 1 message needing a reply. Call attention_inbox before continuing.',
    );
    fx.clock.advance(1000);
    expect((await hooks.userPromptSubmit('claude-code', { ...base('k1'), prompt: 'go' })).context).toBeUndefined();
  });
});
