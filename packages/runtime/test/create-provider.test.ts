import { collectTurn } from '@swarm/providers';
import { startFakeAnthropic, startFakeOpenAI } from '@swarm/providers/testing';
import { describe, expect, it } from 'vitest';
import { createModelProvider, type ResolvedProvider } from '../src/index.js';

const block = (over: Partial<ResolvedProvider>): ResolvedProvider => ({
  name: 'p',
  type: 'anthropic',
  api_key_env: 'ANTHROPIC_API_KEY',
  base_url: null,
  max_retries: 0,
  timeout: null,
  models: {},
  native_tools: true,
  prompt_cache: true,
  preset: null,
  argv: null,
  max_tokens_field: 'max_tokens',
  prompt_on_stdin: false,
  script: [],
  ...over,
});
const ask = { model: 'sonnet', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('createModelProvider (settings -> a live provider)', () => {
  it('anthropic: base_url, api_key_env and the models table reach the SDK', async () => {
    const fake = await startFakeAnthropic({ replies: [{ text: 'hello' }] });
    try {
      const provider = createModelProvider(
        block({ base_url: fake.baseURL, api_key_env: 'MY_KEY', models: { sonnet: 'claude-opus-4-8' } }),
        { cwd: '/', env: { MY_KEY: 'secret' } },
      );
      const { end } = await collectTurn(provider.stream(ask));
      expect(end).toMatchObject({ type: 'stop', model: 'claude-opus-4-8' });
      expect(fake.requests[0]!.headers.authorization).toBe('Bearer secret');
      expect(fake.requests[0]!.body.model).toBe('claude-opus-4-8');
    } finally {
      await fake.close();
    }
  });

  it('openai: native_tools false sends no tools', async () => {
    const fake = await startFakeOpenAI({ replies: [{ text: 'ok' }] });
    try {
      const provider = createModelProvider(
        block({ type: 'openai', base_url: fake.baseURL, api_key_env: 'X', native_tools: false }),
        {
          cwd: '/',
          env: {},
        },
      );
      const { end } = await collectTurn(
        provider.stream({ ...ask, tools: [{ name: 't', input_schema: { type: 'object' } }] }),
      );
      expect(end.type).toBe('stop');
      expect(fake.requests[0]!.body.tools).toBeUndefined();
    } finally {
      await fake.close();
    }
  });

  it('scripted: replays the block script; command: runs its argv in cwd', async () => {
    const scripted = createModelProvider(block({ type: 'scripted', script: [{ text: 'from settings' }] }), {
      cwd: '/',
    });
    expect((await collectTurn(scripted.stream(ask))).events[0]).toEqual({ type: 'text', text: 'from settings' });
    const argv = [process.execPath, '-e', 'console.log(JSON.stringify({type:"text",text:process.cwd()}))'];
    const command = createModelProvider(block({ type: 'command', preset: 'jsonl', argv }), { cwd: '/tmp' });
    const { events, end } = await collectTurn(command.stream(ask));
    expect(events[0]).toMatchObject({ type: 'text' });
    expect(end.type).toBe('stop');
  });
});
