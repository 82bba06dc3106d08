/**
 * The hooks over the real services: messages sent with task_message show up in the
 * session-start preface as MessageService lists them (blocking first, reply call
 * included, fyi only counted), handoffs as BatonService offers them (accept and
 * decline calls), others' fresh claims by the claims' age rule; pre-tool-use claims
 * through ClaimService and warns on overlap; the prompt reminder fires only for what
 * arrived since the agent last looked.
 */

import { countClaims } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_FRESH_MS } from '../src/claims/age';
import { serviceAttention, serviceClaims } from '../src/hooks/service-ports';
import { DEFAULT_COORDINATION_SETTINGS, estimatingTokenCounter, HookService } from '../src/index';
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
    attention: serviceAttention(ctx, { messages: fx.messages, batons: fx.batons }),
    claims: serviceClaims(fx.claims),
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

describe('handoffs in the preface', () => {
  it('a handoff to claude shows with the calls that settle it, and accepting it works', async () => {
    await fx.ok('task_claim_file', { task_id: taskId, session_id: 'codex-c1', file_path: 'src/lexer.ts' });
    const { handoff_observation_id: id } = await fx.ok<{ handoff_observation_id: number }>('task_hand_off', {
      task_id: taskId,
      session_id: 'codex-c1',
      to_agent: 'claude',
      summary: 'Lexer done; run the e2e suite',
      transferred_files: ['src/lexer.ts'],
    });
    fx.clock.advance(60_000);
    const { context = '' } = await hooks.sessionStart('claude-code', base('k1'));
    const lines = context.split('\n');
    expect(lines[2]).toBe('Handoffs for you (accept or decline):');
    expect(lines[3]).toBe(
      `- #${id} handoff on task #${taskId} from codex (codex-c1, expires in 119m): Lexer done; run the e2e suite`,
    );
    expect(lines[4]).toBe(`  accept: task_accept_handoff {"handoff_observation_id":${id},"session_id":"claude-k1"}`);
    expect(lines[5]).toBe(`  decline: task_decline_handoff {"handoff_observation_id":${id},"session_id":"claude-k1"}`);
    await fx.ok('task_accept_handoff', { handoff_observation_id: id, session_id: 'claude-k1' });
    expect((await hooks.sessionStart('claude-code', base('k1'))).context).not.toContain('Handoffs for you');
  });
});

describe('claims: the preface and pre-tool-use', () => {
  it("lists others' fresh claims, files you touched first, and drops them once stale", async () => {
    await fx.ok('task_claim_file', { task_id: taskId, session_id: 'codex-c1', file_path: 'src/a.ts' });
    fx.clock.advance(1000);
    await fx.ok('task_claim_file', { task_id: taskId, session_id: 'codex-c1', file_path: 'src/b.ts' });
    await hooks.postToolUse('claude-code', {
      ...base('k1'),
      tool_name: 'Edit',
      tool_input: { file_path: `${REPO}/src/a.ts` },
    });
    fx.clock.advance(60_000);
    const { context = '' } = await hooks.sessionStart('claude-code', base('k1'));
    expect(context.split('\n').slice(-3)).toEqual([
      'Files others are editing (fresh claims):',
      `- src/a.ts claimed by codex-c1 (codex, task #${taskId}, 1m ago; you touched it too)`,
      `- src/b.ts claimed by codex-c1 (codex, task #${taskId}, 1m ago)`,
    ]);
    fx.clock.advance(CLAIM_FRESH_MS);
    expect((await hooks.sessionStart('claude-code', base('k1'))).context).not.toContain('Files others are editing');
  });

  it('pre-tool-use claims the file like task_claim_file and warns when another session holds it', async () => {
    const quiet = await hooks.preToolUse('claude-code', {
      ...base('k1'),
      tool_name: 'Write',
      tool_input: { file_path: `${REPO}/src/new.ts` },
    });
    expect(quiet).toEqual({ sessionId: 'claude-k1' });
    expect(countClaims(fx.store, 'active')).toBe(1);

    await fx.ok('task_claim_file', { task_id: taskId, session_id: 'codex-c1', file_path: 'src/lexer.ts' });
    fx.clock.advance(120_000);
    const warned = await hooks.preToolUse('claude-code', {
      ...base('k1'),
      tool_name: 'Edit',
      tool_input: { file_path: `${REPO}/src/lexer.ts` },
    });
    expect(warned.context).toBe(
      `colony: overlap: src/lexer.ts claimed by codex-c1 (codex, task #${taskId}, 2m ago). Claims are warnings, not locks: coordinate with task_message before overwriting their work.`,
    );
    expect(countClaims(fx.store, 'active')).toBe(3);
    const drift = await fx.ok<{ claimed_files: string[] }>('task_drift_check', {
      task_id: taskId,
      session_id: 'claude-k1',
    });
    expect(drift.claimed_files).toEqual(['src/lexer.ts', 'src/new.ts']);
  });
});
