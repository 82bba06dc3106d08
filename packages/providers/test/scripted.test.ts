import { describe, expect, it } from 'vitest';
import { collectTurn, scriptedProvider } from '../src/index.js';

const ask = { model: 'haiku', messages: [{ role: 'user' as const, content: 'x' }] };

describe('scripted provider', () => {
  it('replays text and tool calls turn by turn, the same way every time', async () => {
    const script = [
      {
        text: 'calling',
        tool_calls: [{ name: 'read', input: { path: 'a' } }],
        usage: { input_tokens: 100, output_tokens: 10 },
      },
      { text: 'done' },
    ];
    for (let run = 0; run < 2; run++) {
      const provider = scriptedProvider(script);
      const first = await collectTurn(provider.stream(ask));
      expect(first.events.map((e) => e.type)).toEqual(['text', 'tool_use', 'stop']);
      expect(first.end).toMatchObject({
        type: 'stop',
        stop_reason: 'tool_use',
        model: 'claude-haiku-5-5',
        usage: { input_tokens: 100, output_tokens: 10 },
      });
      if (first.end.type !== 'stop') throw new Error('stop expected');
      expect(first.end.cost_usd).toBeCloseTo((100 * 0.1 + 10 * 0.5) / 1e6, 12);
      expect(first.events[1]).toEqual({ type: 'tool_use', id: 'call_1_0', name: 'read', input: { path: 'a' } });
      const second = await collectTurn(provider.stream(ask));
      expect(second.end).toMatchObject({ type: 'stop', stop_reason: 'end_turn' });
      expect(provider.requests).toHaveLength(2);
    }
  });

  it('reports scripted retries and errors, and fails past the end of the script', async () => {
    const provider = scriptedProvider([{ retries: 2, error: { kind: 'overloaded', message: 'busy', status: 529 } }]);
    const first = await collectTurn(provider.stream(ask));
    expect(first.events.filter((e) => e.type === 'retry')).toHaveLength(2);
    expect(first.end).toEqual({ type: 'error', kind: 'overloaded', message: 'busy', status: 529, retries: 2 });
    const past = await collectTurn(provider.stream(ask));
    expect(past.end).toMatchObject({ type: 'error', kind: 'protocol', message: 'scripted: no turn 2 in the script' });
  });

  it('ends a delayed turn as aborted as soon as the signal aborts', async () => {
    const provider = scriptedProvider([{ delay_ms: 10_000, text: 'late' }]);
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 20);
    const { end } = await collectTurn(provider.stream(ask, { signal: controller.signal }));
    expect(end).toMatchObject({ type: 'error', kind: 'aborted' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('answers from a function of the request', async () => {
    const provider = scriptedProvider((request, index) => ({ text: `${index}:${request.system ?? ''}` }));
    const { events } = await collectTurn(provider.stream({ ...ask, system: 'sys' }));
    expect(events[0]).toEqual({ type: 'text', text: '0:sys' });
  });
});
