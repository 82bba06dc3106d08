/**
 * guardTools end to end: the real Anthropic SDK against the fake Messages API, the real
 * agent tools on a temp folder, hooks as real processes. Denied calls never run and the
 * model reads why; an `ask` becomes a needs_reply message and a deny on timeout.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anthropicProvider } from '@swarm/providers';
import { type FakeAnthropic, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentTools,
  type GuardOptions,
  guardTools,
  type HooksConfig,
  LifecycleHooks,
  mailboxAsker,
  memoryMailbox,
  runAgentLoop,
} from '../src/index.js';

let fake: FakeAnthropic;
let dir: string;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  dir = mkdtempSync(join(tmpdir(), 'guard-'));
  writeFileSync(join(dir, 'keep.txt'), 'keep me\n');
  writeFileSync(join(dir, 'src.ts'), 'export {};\n');
});
afterEach(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const mailbox = memoryMailbox(() => 1000);

/** One session in which the model asks for `bash` with `command`, then ends; returns the tool_result the model got. */
async function session(command: string, guard: Omit<GuardOptions, 'agent'>) {
  fake.enqueue(
    { tool_uses: [{ id: 'toolu_1', name: 'bash', input: { command } }], usage: { input_tokens: 10, output_tokens: 5 } },
    { text: 'Done.', usage: { input_tokens: 10, output_tokens: 5 } },
  );
  const tools = agentTools({ worktree: dir, agent: 'backend', colony_session_id: 'swarm-s-backend', env: {}, mailbox });
  const result = await runAgentLoop({
    provider: anthropicProvider({ base_url: fake.baseURL, api_key_env: 'K', env: { K: 'k' }, max_retries: 0 }),
    model: 'sonnet',
    messages: [{ role: 'user', content: 'Begin.' }],
    tools: tools.schemas,
    executor: guardTools(tools.executor, { agent: 'backend', ...guard }),
  });
  expect(result.outcome).toBe('end_turn');
  const messages = fake.requests[1]!.body.messages as { content: unknown }[];
  return (messages.at(-1)!.content as { content: string; is_error: boolean }[])[0]!;
}

const hooks = (config: HooksConfig) =>
  new LifecycleHooks(config, { session_id: 's-1', cwd: dir, agent_name: 'backend' });

describe('guardTools: permissions', () => {
  it('a deny rule Bash(rm -rf *) stops `rm -rf *`: the model gets an error naming the rule, no file is touched', async () => {
    const out = await session('rm -rf *', {
      permissions: { project: { deny: ['Bash(rm -rf *)'], default_mode: 'dont-ask' }, agent: null },
    });
    expect(out.is_error).toBe(true);
    expect(out.content).toBe('permission denied: project deny rule Bash(rm -rf *)');
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('keep me\n');
    expect(existsSync(join(dir, 'src.ts'))).toBe(true);
  });

  it('an allowed call runs', async () => {
    const out = await session('echo hi > made.txt', {
      permissions: { project: { allow: ['Bash(echo *)'] }, agent: null },
    });
    expect(out.is_error).toBe(false);
    expect(existsSync(join(dir, 'made.txt'))).toBe(true);
  });

  it('ask: a needs_reply message to the operator, then a deny when nobody answers in time', async () => {
    const started = performance.now();
    const out = await session('touch pushed.txt', {
      permissions: { project: { ask: ['Bash(touch *)'] }, agent: null },
      asker: mailboxAsker({ mailbox, timeout_ms: 400 }),
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(out.is_error).toBe(true);
    expect(out.content).toMatch(/^permission denied: project ask rule Bash\(touch \*\); no operator approval within/);
    expect(existsSync(join(dir, 'pushed.txt'))).toBe(false);
    const asked = mailbox.messages.at(-1)!;
    expect(asked).toMatchObject({ from: 'backend', to: 'operator', needs_reply: true });
    expect(asked.body).toContain('bash(touch pushed.txt)');
  });

  it('ask: an approval in time lets the call run', async () => {
    const out = await session('touch approved.txt', {
      permissions: { project: { ask: ['Bash(touch *)'] }, agent: null },
      asker: mailboxAsker({ mailbox, timeout_ms: 5000, poll_ms: 50, answer: async () => true }),
    });
    expect(out.is_error).toBe(false);
    expect(existsSync(join(dir, 'approved.txt'))).toBe(true);
  });
});

describe('guardTools: hooks', () => {
  it('a PreToolUse hook exiting 2 stops the call and its stderr reaches the model', async () => {
    const out = await session('touch made.txt', {
      hooks: hooks({
        pre_tool_use: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no touching" >&2; exit 2' }] }],
      }),
    });
    expect(out).toEqual(
      expect.objectContaining({ is_error: true, content: 'blocked by PreToolUse hook: no touching' }),
    );
    expect(existsSync(join(dir, 'made.txt'))).toBe(false);
  });

  it('exit 1 is not blocking: the call runs', async () => {
    const out = await session('touch made.txt', {
      hooks: hooks({ pre_tool_use: [{ hooks: [{ type: 'command', command: 'echo broken >&2; exit 1' }] }] }),
    });
    expect(out.is_error).toBe(false);
    expect(existsSync(join(dir, 'made.txt'))).toBe(true);
  });

  it('an explicit allow from a PreToolUse hook approves an ask; PostToolUse receives tool_response', async () => {
    const out = await session('echo ran', {
      permissions: { project: null, agent: { default_mode: 'default' } },
      hooks: hooks({
        pre_tool_use: [{ hooks: [{ type: 'command', command: `echo '{"decision":"allow"}'` }] }],
        post_tool_use: [{ hooks: [{ type: 'command', command: 'cat > post.json' }] }],
      }),
    });
    expect(out.is_error).toBe(false);
    const post = JSON.parse(readFileSync(join(dir, 'post.json'), 'utf8'));
    expect(post).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'bash',
      tool_input: { command: 'echo ran' },
    });
    expect(post.tool_response.content).toContain('ran');
  });

  it('PostToolUseFailure fires on a failing bash', async () => {
    const out = await session('exit 3', {
      hooks: hooks({ post_tool_use_failure: [{ hooks: [{ type: 'command', command: 'cat > failed.json' }] }] }),
    });
    expect(out.is_error).toBe(true);
    const failed = JSON.parse(readFileSync(join(dir, 'failed.json'), 'utf8'));
    expect(failed).toMatchObject({ hook_event_name: 'PostToolUseFailure', tool_name: 'bash' });
    expect(failed.error).toContain('exit code 3');
    expect('tool_response' in failed).toBe(false);
  });
});
