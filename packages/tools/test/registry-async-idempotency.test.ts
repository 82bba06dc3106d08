/**
 * The registry routes a keyed call of a tool declared `async` to `idempotentAsync` (the
 * arguments hashed without the key), keeps synchronous tools on `idempotent`, and runs an
 * async tool plainly when no `idempotentAsync` callback is given; a tool's fingerprint
 * decides what is hashed (exec_parallel and swarm_run leave env values out).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, hashArgs, type RegistryCallbacks, ToolRegistry } from '../src/index';
import { swarmRun } from '../src/tools/swarm-runs';
import { execParallel } from '../src/tools/workspaces';

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

  it('hashes the fingerprint: exec_parallel and swarm_run keep env names, never env values', async () => {
    const hashes: string[] = [];
    const hooks: RegistryCallbacks = {
      now: () => 0,
      idempotentAsync: async (_tool, _key, argsHash) => {
        hashes.push(argsHash);
        return {};
      },
    };
    const registry = new ToolRegistry([execParallel, swarmRun], { workspaces: {}, swarmRuns: {} }, hooks);
    const exec = (env: Record<string, string>) =>
      registry.call('exec_parallel', { workspace_ids: ['/w'], commands: 'true', env, idempotency_key: 'k' });
    await exec({ TOKEN: 'secret-one' });
    await exec({ TOKEN: 'secret-two' });
    await exec({ OTHER: 'secret-one' });
    const swarm = (envVars: Record<string, string>, env: Record<string, string>) =>
      registry.call('swarm_run', {
        repo_root: '/r',
        tasks: [{ name: 'a', command: 'true', env }],
        env_vars: envVars,
        idempotency_key: 'k',
      });
    await swarm({ A: 'secret-one' }, { B: 'secret-two' });
    await swarm({ A: 'secret-three' }, { B: 'secret-four' });
    await swarm({ A: 'secret-one' }, { C: 'secret-two' });
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
    expect(hashes[3]).toBe(hashes[4]);
    expect(hashes[5]).not.toBe(hashes[3]);
  });
});
