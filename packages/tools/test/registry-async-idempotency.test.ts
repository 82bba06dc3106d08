/**
 * The registry routes a keyed call of a tool declared `async` to `idempotentAsync` (the
 * arguments hashed without the key), keeps synchronous tools on `idempotent`, and runs an
 * async tool plainly when no `idempotentAsync` callback is given.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, hashArgs, type RegistryCallbacks, ToolRegistry } from '../src/index';

const runs: string[] = [];
const slow = defineTool({
  name: 'slow_write',
  title: 'slow_write',
  description: 'Write slowly.',
  input: z.strictObject({ n: z.int() }),
  mutates: true,
  hints: { destructive: false, idempotent: false },
  async: true,
  docs: { returns: '{ n }', example: { n: 1 } },
  handler: async (args) => {
    runs.push('slow');
    return { n: args.n };
  },
});

describe('async idempotency routing', () => {
  it('sends a keyed call of an async tool to idempotentAsync, never to idempotent', async () => {
    const seen: unknown[] = [];
    const hooks: RegistryCallbacks = {
      now: () => 0,
      idempotent: () => {
        throw new Error('sync path used');
      },
      idempotentAsync: async (tool, key, argsHash, fn) => {
        seen.push([tool, key, argsHash]);
        return fn();
      },
    };
    const registry = new ToolRegistry([slow], {}, hooks);
    expect('idempotency_key' in slow.input.shape).toBe(true);
    const out = await registry.call('slow_write', { n: 2, idempotency_key: 'k' });
    expect(out).toMatchObject({ ok: true, value: { n: 2 } });
    expect(seen).toEqual([['slow_write', 'k', hashArgs({ n: 2 })]]);
    const unkeyed = await registry.call('slow_write', { n: 3 });
    expect(unkeyed).toMatchObject({ ok: true, value: { n: 3 } });
    expect(seen).toHaveLength(1);
  });

  it('runs an async tool plainly without an idempotentAsync callback', async () => {
    runs.length = 0;
    const registry = new ToolRegistry([slow], {}, { now: () => 0, idempotent: (_t, _k, _h, fn) => fn() });
    const out = await registry.call('slow_write', { n: 4, idempotency_key: 'k' });
    expect(out).toMatchObject({ ok: true, value: { n: 4 } });
    expect(runs).toEqual(['slow']);
  });
});
