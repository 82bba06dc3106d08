import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicProvider, collectTurn, costUsd, type ModelProvider, type ProviderEvent } from '../src/index.js';
import { type FakeAnthropic, startFakeAnthropic } from '../src/testing/index.js';

const ENV = { TEST_ANTHROPIC_KEY: 'sk-test-123' };
const TOOLS = [
  {
    name: 'read',
    description: 'Read a file',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

describe('anthropic provider (real SDK against the fake Messages API)', () => {
  let fake: FakeAnthropic;
  let provider: ModelProvider;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    provider = anthropicProvider({
      base_url: fake.baseURL,
      api_key_env: 'TEST_ANTHROPIC_KEY',
      max_retries: 3,
      env: ENV,
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('streams text deltas and ends with the stop reason, usage and cost', async () => {
    fake.enqueue({ text: 'Hello from the fake model, in pieces.', usage: { input_tokens: 1000, output_tokens: 200 } });
    const { events, end } = await collectTurn(
      provider.stream({ model: 'sonnet', system: 'You are backend.', messages: [{ role: 'user', content: 'hi' }] }),
    );
    const texts = events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe('Hello from the fake model, in pieces.');
    expect(end).toMatchObject({
      type: 'stop',
      stop_reason: 'end_turn',
      model: 'claude-sonnet-5-5',
      retries: 0,
      usage: { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 0 },
    });
    if (end.type !== 'stop') throw new Error('expected stop');
    expect(end.cost_usd).toBeCloseTo((1000 * 2 + 200 * 10) / 1e6, 12);
    const request = fake.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer sk-test-123');
    expect(request.body).toMatchObject({
      model: 'claude-sonnet-5-5',
      stream: true,
      system: 'You are backend.',
      cache_control: { type: 'ephemeral' },
    });
  });

  it('assembles tool_use blocks from input_json_delta fragments and sends tool schemas', async () => {
    fake.enqueue({
      text: 'Reading.',
      tool_uses: [{ id: 'toolu_a', name: 'read', input: { path: 'src/a b.ts', n: [1, 2] } }],
    });
    const { events, end } = await collectTurn(
      provider.stream({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'go' }], tools: TOOLS }),
    );
    expect(events.find((e) => e.type === 'tool_use')).toEqual({
      type: 'tool_use',
      id: 'toolu_a',
      name: 'read',
      input: { path: 'src/a b.ts', n: [1, 2] },
    });
    expect(end).toMatchObject({ type: 'stop', stop_reason: 'tool_use' });
    if (end.type !== 'stop') throw new Error('expected stop');
    expect(end.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_a', name: 'read', input: { path: 'src/a b.ts', n: [1, 2] } },
      ],
    });
    expect(fake.requests[0]!.body.tools).toEqual(TOOLS);
  });

  it('reports cache usage and prices it', async () => {
    fake.enqueue({
      text: 'ok',
      usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000 },
    });
    const { end } = await collectTurn(provider.stream({ model: 'opus', messages: [{ role: 'user', content: 'x' }] }));
    if (end.type !== 'stop') throw new Error('expected stop');
    expect(end.usage).toEqual({
      input_tokens: 10,
      output_tokens: 10,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 1000,
    });
    expect(end.cost_usd).toBeCloseTo(costUsd('claude-opus-5-5', end.usage)!, 12);
    expect(end.cost_usd).toBeCloseTo((10 * 4 + 10 * 20 + 100 * 5 + 1000 * 0.2) / 1e6, 12);
  });

  it('counts and reports every retry of 500, 429 and 529 before succeeding', async () => {
    fake.enqueue(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 429 },
      { kind: 'status', status: 529 },
      { text: 'finally' },
    );
    const { events, end } = await collectTurn(
      provider.stream({ model: 'sonnet', messages: [{ role: 'user', content: 'x' }] }),
    );
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries).toEqual([
      { type: 'retry', attempt: 1, status: 500, reason: 'HTTP 500' },
      { type: 'retry', attempt: 2, status: 429, reason: 'HTTP 429' },
      { type: 'retry', attempt: 3, status: 529, reason: 'HTTP 529' },
    ]);
    expect(end).toMatchObject({ type: 'stop', retries: 3 });
    expect(fake.requests).toHaveLength(4);
  });

  it('gives up after max_retries with the last status as the error kind', async () => {
    fake.enqueue(...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 529 })));
    const { end } = await collectTurn(provider.stream({ model: 'sonnet', messages: [{ role: 'user', content: 'x' }] }));
    expect(end).toMatchObject({ type: 'error', kind: 'overloaded', status: 529, retries: 3 });
    expect(fake.requests).toHaveLength(4);
  });

  it('does not retry a 400 and says so as bad_request', async () => {
    fake.enqueue({ kind: 'status', status: 400, message: 'messages: bad' });
    const { end } = await collectTurn(provider.stream({ model: 'sonnet', messages: [{ role: 'user', content: 'x' }] }));
    expect(end).toMatchObject({ type: 'error', kind: 'bad_request', status: 400, retries: 0 });
  });

  it('turns a mid-stream overloaded_error event into an overloaded error', async () => {
    fake.enqueue({ kind: 'stream_error', error_type: 'overloaded_error', text: 'par' });
    const { end } = await collectTurn(provider.stream({ model: 'sonnet', messages: [{ role: 'user', content: 'x' }] }));
    expect(end).toMatchObject({ type: 'error', kind: 'overloaded' });
  });

  it('aborts a held stream promptly and the server sees the connection dropped', async () => {
    fake.enqueue({ kind: 'hold', text: 'thinking...' });
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    const started = performance.now();
    for await (const event of provider.stream(
      { model: 'sonnet', messages: [{ role: 'user', content: 'x' }] },
      { signal: controller.signal },
    )) {
      seen.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(seen.at(-1)).toMatchObject({ type: 'error', kind: 'aborted' });
    await import('../src/testing/index.js').then(({ until }) => until(() => fake.dropped() === 1, 2_000, 'drop'));
  });

  it('ends a held stream with a timeout error after `timeout` seconds', async () => {
    const quick = anthropicProvider({
      base_url: fake.baseURL,
      api_key_env: 'TEST_ANTHROPIC_KEY',
      max_retries: 0,
      timeout: 0.3,
      env: ENV,
    });
    fake.enqueue({ kind: 'hold' });
    const { end } = await collectTurn(quick.stream({ model: 'sonnet', messages: [{ role: 'user', content: 'x' }] }));
    expect(end).toMatchObject({ type: 'error', kind: 'timeout' });
  });

  it('leaves prompt caching off when told', async () => {
    const uncached = anthropicProvider({
      base_url: fake.baseURL,
      api_key_env: 'TEST_ANTHROPIC_KEY',
      env: ENV,
      prompt_cache: false,
    });
    fake.enqueue({ text: 'ok' });
    await collectTurn(uncached.stream({ model: 'sonnet', messages: [{ role: 'user', content: 'x' }] }));
    expect(fake.requests[0]!.body.cache_control).toBeUndefined();
  });

  it('refuses to call without the key and names the variable', async () => {
    const keyless = anthropicProvider({ base_url: fake.baseURL, api_key_env: 'NOPE_KEY', env: {} });
    const { end } = await collectTurn(keyless.stream({ model: 'sonnet', messages: [{ role: 'user', content: 'x' }] }));
    expect(end).toEqual({
      type: 'error',
      kind: 'auth',
      message: 'environment variable NOPE_KEY is not set',
      retries: 0,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('sends tool results back as the Messages API expects', async () => {
    fake.enqueue({ text: 'done' });
    await collectTurn(
      provider.stream({
        model: 'sonnet',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: 'a' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'file a', is_error: false }] },
        ],
        tools: TOOLS,
      }),
    );
    expect(fake.requests[0]!.body.messages[2].content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 't1',
      content: 'file a',
      is_error: false,
    });
  });
});
