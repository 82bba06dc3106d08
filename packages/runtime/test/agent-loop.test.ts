import { anthropicProvider, scriptedProvider } from '@swarm/providers';
import { type FakeAnthropic, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type LoopEvent,
  loopExitOutcome,
  routeTools,
  runAgentLoop,
  type ToolCall,
  type ToolExecutor,
  toolCallerExecutor,
} from '../src/index.js';

const TOOLS = [
  {
    name: 'read',
    description: 'Read a file',
    input_schema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: 'bash',
    description: 'Run a command',
    input_schema: { type: 'object', properties: { command: { type: 'string' } } },
  },
];
const FILES: Record<string, string> = { 'README.md': '# hello' };
const reader: ToolExecutor = {
  async execute(call) {
    const path = String(call.input.path);
    return path in FILES ? { content: FILES[path]! } : { content: `no such file: ${path}`, is_error: true };
  },
};
const start = [{ role: 'user' as const, content: 'Begin.' }];

describe('runAgentLoop with the real Anthropic SDK against the fake Messages API', () => {
  let fake: FakeAnthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await fake.close();
  });
  const provider = () =>
    anthropicProvider({ base_url: fake.baseURL, api_key_env: 'K', env: { K: 'k' }, max_retries: 1 });

  it('runs a tool_use round trip: tool results go back, usage and cost add up', async () => {
    fake.enqueue(
      {
        text: 'Let me read.',
        tool_uses: [{ id: 'toolu_1', name: 'read', input: { path: 'README.md' } }],
        usage: { input_tokens: 100, output_tokens: 20 },
      },
      { kind: 'status', status: 529 },
      { text: 'It says hello.', usage: { input_tokens: 150, output_tokens: 10 } },
    );
    const events: LoopEvent[] = [];
    const result = await runAgentLoop({
      provider: provider(),
      model: 'sonnet',
      system: 'You are backend.',
      messages: start,
      tools: TOOLS,
      executor: routeTools({ read: reader }),
      onEvent: (e) => events.push(e),
    });
    expect(result).toMatchObject({
      outcome: 'end_turn',
      stop_reason: 'end_turn',
      turns: 2,
      retries: 1,
      tool_calls: 1,
      usage: { input_tokens: 250, output_tokens: 30 },
    });
    expect(result.cost_usd).toBeCloseTo((250 * 2 + 30 * 10) / 1e6, 12);
    expect(fake.requests).toHaveLength(3);
    const second = fake.requests[2]!.body;
    expect(second.system).toBe('You are backend.');
    expect(second.messages).toEqual([
      { role: 'user', content: 'Begin.' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me read.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'README.md' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '# hello', is_error: false }] },
    ]);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(1);
    expect(loopExitOutcome(result)).toEqual({ kind: 'success' });
  });

  it('aborts mid-stream at once and says aborted', async () => {
    fake.enqueue({ kind: 'hold', text: 'thinking' });
    const controller = new AbortController();
    const started = performance.now();
    const result = await runAgentLoop({
      provider: provider(),
      model: 'sonnet',
      messages: start,
      tools: TOOLS,
      executor: reader,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'text') controller.abort();
      },
    });
    expect(result.outcome).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(loopExitOutcome(result)).toBeNull();
  });

  it('reports a provider failure as error with the kind, and maps it for the state machine', async () => {
    fake.enqueue({ kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const result = await runAgentLoop({
      provider: provider(),
      model: 'sonnet',
      messages: start,
      tools: TOOLS,
      executor: reader,
    });
    expect(result).toMatchObject({ outcome: 'error', retries: 1, error: { kind: 'api_error', status: 500 } });
    expect(loopExitOutcome(result)).toEqual({ kind: 'error', message: expect.stringContaining('api_error') });
  });
});

describe('runAgentLoop with the scripted provider', () => {
  const twoTools = [
    {
      tool_calls: [
        { id: 'a', name: 'bash', input: { command: 'rm -rf /' } },
        { id: 'b', name: 'read', input: { path: 'README.md' } },
      ],
    },
    { text: 'ok' },
  ];

  it('lets beforeToolCall deny one call (the model sees why) and run the next', async () => {
    const provider = scriptedProvider(twoTools);
    const seen: string[] = [];
    const result = await runAgentLoop({
      provider,
      model: 'haiku',
      messages: start,
      tools: TOOLS,
      executor: routeTools({ read: reader }),
      beforeToolCall: (call) => {
        seen.push(call.name);
        return call.name === 'bash' ? { action: 'deny', message: 'permission denied: Bash(rm *)' } : { action: 'run' };
      },
    });
    expect(seen).toEqual(['bash', 'read']);
    expect(result.outcome).toBe('end_turn');
    expect(provider.requests[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'permission denied: Bash(rm *)', is_error: true },
        { type: 'tool_result', tool_use_id: 'b', content: '# hello', is_error: false },
      ],
    });
  });

  it('stops the loop when beforeToolCall says stop (urgent mail), answering every call', async () => {
    const provider = scriptedProvider(twoTools);
    const result = await runAgentLoop({
      provider,
      model: 'haiku',
      messages: start,
      tools: TOOLS,
      executor: reader,
      beforeToolCall: () => ({ action: 'stop', reason: 'urgent message from operator' }),
    });
    expect(result).toMatchObject({ outcome: 'stopped', reason: 'urgent message from operator', turns: 1 });
    expect(result.messages.at(-1)!.content).toHaveLength(2);
    expect(provider.requests).toHaveLength(1);
    expect(loopExitOutcome(result)).toEqual({ kind: 'success' });
  });

  it('turns a throwing tool into an error result and carries on', async () => {
    const provider = scriptedProvider([{ tool_calls: [{ id: 'x', name: 'read', input: {} }] }, { text: 'recovered' }]);
    const result = await runAgentLoop({
      provider,
      model: 'haiku',
      messages: start,
      tools: TOOLS,
      executor: {
        execute: async () => {
          throw new Error('disk on fire');
        },
      },
    });
    expect(result.outcome).toBe('end_turn');
    expect(provider.requests[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'x', content: 'tool read failed: disk on fire', is_error: true }],
    });
  });

  it('stops on the token budget before the next request, with a clear reason', async () => {
    const turn = {
      tool_calls: [{ name: 'read', input: { path: 'README.md' } }],
      usage: { input_tokens: 400, output_tokens: 100 },
    };
    const provider = scriptedProvider([turn, turn, turn, turn]);
    const result = await runAgentLoop({
      provider,
      model: 'haiku',
      messages: start,
      tools: TOOLS,
      executor: reader,
      budgets: { max_tokens: 1000 },
    });
    expect(result).toMatchObject({
      outcome: 'budget',
      turns: 2,
      reason: 'token budget reached: used 1000 of max_tokens 1000',
    });
    expect(loopExitOutcome(result)).toEqual({ kind: 'error', message: result.reason });
  });

  it('stops on the USD budget using the price table', async () => {
    // claude-opus-5-5: $4 in / $20 out per million.
    const turn = {
      tool_calls: [{ name: 'read', input: { path: 'README.md' } }],
      usage: { input_tokens: 1000, output_tokens: 1000 },
    };
    const provider = scriptedProvider([turn, turn, turn]);
    const result = await runAgentLoop({
      provider,
      model: 'opus',
      messages: start,
      tools: TOOLS,
      executor: reader,
      budgets: { max_usd: 0.03 },
    });
    expect(result.outcome).toBe('budget');
    expect(result.turns).toBe(2);
    expect(result.cost_usd).toBeCloseTo(0.048, 9);
    expect(result.reason).toBe('cost budget reached: used $0.048000 of max_usd $0.03');
  });

  it('ends timeout when the session outlives timeout_ms, mid-turn, and maps to Timeout', async () => {
    const provider = scriptedProvider([{ delay_ms: 10_000, text: 'too late' }]);
    const started = performance.now();
    const result = await runAgentLoop({
      provider,
      model: 'haiku',
      messages: start,
      tools: TOOLS,
      executor: reader,
      timeout_ms: 100,
    });
    expect(result).toMatchObject({ outcome: 'timeout', reason: 'session timed out after 0.1s' });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(loopExitOutcome(result)).toEqual({ kind: 'timeout' });
    const quick = await runAgentLoop({
      provider: scriptedProvider([{ text: 'done' }]),
      model: 'haiku',
      messages: start,
      tools: TOOLS,
      executor: reader,
      timeout_ms: 5_000,
    });
    expect(quick.outcome).toBe('end_turn');
  });

  it('stops at max_turns', async () => {
    const turn = { tool_calls: [{ name: 'read', input: { path: 'README.md' } }] };
    const result = await runAgentLoop({
      provider: scriptedProvider([turn, turn, turn]),
      model: 'haiku',
      messages: start,
      tools: TOOLS,
      executor: reader,
      budgets: { max_turns: 2 },
    });
    expect(result).toMatchObject({ outcome: 'max_turns', turns: 2 });
  });

  it('reaches colony through a ToolCaller only', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [];
    const colony = {
      async callTool(name: string, args: Record<string, unknown>) {
        calls.push([name, args]);
        return name === 'task_ready_for_agent'
          ? { ok: true, text: '{"ready":[]}' }
          : { ok: false, text: 'colony: UNKNOWN_TOOL' };
      },
    };
    const provider = scriptedProvider([
      { tool_calls: [{ id: 'r', name: 'task_ready_for_agent', input: { agent: 'backend' } }] },
      { text: 'nothing to do' },
    ]);
    const call: ToolCall[] = [];
    const result = await runAgentLoop({
      provider,
      model: 'haiku',
      messages: start,
      tools: [{ name: 'task_ready_for_agent', input_schema: { type: 'object' } }],
      executor: toolCallerExecutor(colony),
      beforeToolCall: (c) => {
        call.push(c);
        return { action: 'run' };
      },
    });
    expect(result.outcome).toBe('end_turn');
    expect(calls).toEqual([['task_ready_for_agent', { agent: 'backend' }]]);
    expect(provider.requests[1]!.messages.at(-1)).toMatchObject({
      content: [{ content: '{"ready":[]}', is_error: false }],
    });
  });
});
