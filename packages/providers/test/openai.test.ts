import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectTurn, type ModelProvider, openaiProvider, type ProviderEvent } from '../src/index.js';
import { type FakeOpenAI, startFakeOpenAI, until } from '../src/testing/index.js';

const TOOLS = [
  {
    name: 'read',
    description: 'Read a file',
    input_schema: { type: 'object', properties: { path: { type: 'string' } } },
  },
];
const ENV = { LOCAL_KEY: 'sk-local' };

describe('openai provider (Chat Completions against a local fake)', () => {
  let fake: FakeOpenAI;
  let provider: ModelProvider;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
    provider = openaiProvider({
      base_url: fake.baseURL,
      api_key_env: 'LOCAL_KEY',
      env: ENV,
      max_retries: 3,
      prices: { 'gpt-test': { input: 1, output: 2, cache_write: 0, cache_read: 0.5 } },
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('streams text, counts usage with cached tokens apart, and prices the turn', async () => {
    fake.enqueue({
      text: 'hello there, model here',
      usage: { prompt_tokens: 1000, completion_tokens: 100, cached_tokens: 400 },
    });
    const { events, end } = await collectTurn(
      provider.stream({ model: 'gpt-test', system: 'sys', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('hello there, model here');
    expect(end).toMatchObject({
      type: 'stop',
      stop_reason: 'end_turn',
      usage: { input_tokens: 600, output_tokens: 100, cache_read_input_tokens: 400, cache_creation_input_tokens: 0 },
    });
    if (end.type !== 'stop') throw new Error('stop expected');
    expect(end.cost_usd).toBeCloseTo((600 * 1 + 100 * 2 + 400 * 0.5) / 1e6, 12);
    const request = fake.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer sk-local');
    expect(request.body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('assembles tool_calls deltas into tool_use events and round-trips them as tool messages', async () => {
    fake.enqueue({
      tool_calls: [
        { id: 'call_x', name: 'read', arguments: { path: 'a/b.ts' } },
        { name: 'read', arguments: { path: 'c' } },
      ],
    });
    const { events, end } = await collectTurn(
      provider.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'go' }], tools: TOOLS }),
    );
    expect(events.filter((e) => e.type === 'tool_use')).toEqual([
      { type: 'tool_use', id: 'call_x', name: 'read', input: { path: 'a/b.ts' } },
      { type: 'tool_use', id: 'call_1_1', name: 'read', input: { path: 'c' } },
    ]);
    expect(end).toMatchObject({ type: 'stop', stop_reason: 'tool_use' });
    expect(fake.requests[0]!.body.tools).toEqual([
      { type: 'function', function: { name: 'read', description: 'Read a file', parameters: TOOLS[0]!.input_schema } },
    ]);
    if (end.type !== 'stop') throw new Error('stop expected');
    fake.enqueue({ text: 'ok' });
    await collectTurn(
      provider.stream({
        model: 'gpt-test',
        messages: [
          { role: 'user', content: 'go' },
          end.message,
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'call_x', content: 'A' },
              { type: 'tool_result', tool_use_id: 'call_1_1', content: 'C' },
            ],
          },
        ],
        tools: TOOLS,
      }),
    );
    expect(fake.requests[1]!.body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_x', type: 'function', function: { name: 'read', arguments: '{"path":"a/b.ts"}' } },
          { id: 'call_1_1', type: 'function', function: { name: 'read', arguments: '{"path":"c"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_x', content: 'A' },
      { role: 'tool', tool_call_id: 'call_1_1', content: 'C' },
    ]);
  });

  it('surfaces a seed-000 tool_calls envelope in text as tool calls when the model has no native tools', async () => {
    const envelopeProvider = openaiProvider({ base_url: fake.baseURL, env: {}, native_tools: false });
    const text =
      'I will look.\n```json\n{"tool_calls": [{"name": "read", "args": {"path": "x {y}.md"}}, {"name": "fs_list", "args": {}}]}\n```\nthanks';
    fake.enqueue({ text });
    const { events, end } = await collectTurn(
      envelopeProvider.stream({ model: 'llama', messages: [{ role: 'user', content: 'go' }], tools: TOOLS }),
    );
    expect(events.filter((e) => e.type === 'tool_use')).toEqual([
      { type: 'tool_use', id: 'envelope_0', name: 'read', input: { path: 'x {y}.md' } },
      { type: 'tool_use', id: 'envelope_1', name: 'fs_list', input: {} },
    ]);
    expect(end).toMatchObject({ type: 'stop', stop_reason: 'tool_use' });
    expect(fake.requests[0]!.body.tools).toBeUndefined();
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
    if (end.type !== 'stop') throw new Error('stop expected');
    fake.enqueue({ text: 'done' });
    await collectTurn(
      envelopeProvider.stream({
        model: 'llama',
        messages: [
          { role: 'user', content: 'go' },
          end.message,
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'envelope_0', content: 'X' }] },
        ],
        tools: TOOLS,
      }),
    );
    expect(fake.requests[1]!.body.messages.slice(1)).toEqual([
      { role: 'assistant', content: text },
      { role: 'user', content: 'Tool result envelope_0:\nX' },
    ]);
  });

  it('names the output cap field as configured', async () => {
    const modern = openaiProvider({ base_url: fake.baseURL, env: {}, max_tokens_field: 'max_completion_tokens' });
    fake.enqueue({ text: 'a' }, { text: 'b' });
    await collectTurn(modern.stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] }));
    await collectTurn(provider.stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] }));
    expect(fake.requests[0]!.body).toMatchObject({ max_completion_tokens: 100 });
    expect(fake.requests[0]!.body.max_tokens).toBeUndefined();
    expect(fake.requests[1]!.body).toMatchObject({ max_tokens: 100 });
  });

  it('retries 429/500/503 with one retry event each, then stops at max_retries', async () => {
    fake.enqueue(
      { kind: 'status', status: 429 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { text: 'ok' },
    );
    const first = await collectTurn(provider.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }] }));
    expect(first.events.filter((e) => e.type === 'retry').map((e) => (e as { status: number }).status)).toEqual([
      429, 500, 503,
    ]);
    expect(first.end).toMatchObject({ type: 'stop', retries: 3 });
    fake.enqueue(...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 500 })));
    const second = await collectTurn(
      provider.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(second.end).toMatchObject({ type: 'error', kind: 'api_error', status: 500, retries: 3 });
    fake.enqueue({ kind: 'status', status: 401 });
    const third = await collectTurn(provider.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }] }));
    expect(third.end).toMatchObject({ type: 'error', kind: 'auth', retries: 0 });
  });

  it('aborts a held stream promptly; an idle stream times out', async () => {
    fake.enqueue({ kind: 'hold', text: 'partial' });
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    for await (const event of provider.stream(
      { model: 'gpt-test', messages: [{ role: 'user', content: 'x' }] },
      { signal: controller.signal },
    )) {
      seen.push(event);
      if (event.type === 'text' && event.text === 'partial') controller.abort();
    }
    expect(seen.at(-1)).toMatchObject({ type: 'error', kind: 'aborted' });
    await until(() => fake.dropped() === 1, 2_000, 'drop');
    const quick = openaiProvider({ base_url: fake.baseURL, env: {}, timeout: 0.2, max_retries: 0 });
    fake.enqueue({ kind: 'hold' });
    const { end } = await collectTurn(quick.stream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    expect(end).toMatchObject({ type: 'error', kind: 'timeout' });
  });
});
