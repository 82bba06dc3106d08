/**
 * TIMEOUT: when another connection keeps the store's write lock past the busy
 * timeout, the mesh tools answer seed 001's TIMEOUT (not an internal error) and write
 * nothing; reads still answer (WAL readers never wait for writers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countMeshEntries, countMeshMessages, openStore } from '@swarm/storage';
import { type ColonyBackend, MESH_TOOLS, ToolRegistry } from '@swarm/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenCounter, DEFAULT_COORDINATION_SETTINGS, manualClock } from '../src/index';
import { createMeshBackend } from '../src/mesh/mesh-service';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'colony-mesh-timeout-'));
  dirs.push(dir);
  const path = join(dir, 'colony.db');
  const store = openStore({ path, busyTimeoutMs: 50 });
  const holder = openStore({ path });
  const clock = manualClock();
  const ctx = { store, clock, tokens: createTokenCounter(), settings: DEFAULT_COORDINATION_SETTINGS };
  const registry = new ToolRegistry(MESH_TOOLS, { mesh: createMeshBackend(ctx) } as ColonyBackend, {
    now: () => clock.now(),
  });
  return { store, holder, registry };
}

describe('TIMEOUT', () => {
  it('answers every writing mesh call with TIMEOUT while another writer holds the lock', async () => {
    const { store, holder, registry } = setUp();
    await registry.call('push_context', { agent_name: 'A', key: 'k', value: 1 });
    const writes: Array<[string, Record<string, unknown>]> = [
      ['push_context', { agent_name: 'A', key: 'k2', value: 2 }],
      ['batch_context_operation', { agent_name: 'A', operations: [{ type: 'push', key: 'k3', value: 3 }] }],
      ['send_message_to_agent', { from_agent: 'A', to_agent: 'B', message: 'hi' }],
      ['broadcast_message_to_agents', { from_agent: 'A', to_agents: ['B', 'C'], message: 'hi' }],
      ['get_messages_from_agents', { agent_name: 'B', mark_as_read: true }],
    ];
    // The holder's transaction stays open while its body awaits the calls.
    const outcomes = await holder.write(() =>
      Promise.all([
        ...writes.map(([tool, args]) => registry.call(tool, args)),
        registry.call('get_context', { agent_name: 'A', key: 'k' }),
      ]),
    );
    for (const [i, [tool]] of writes.entries()) {
      const outcome = outcomes[i]!;
      expect(outcome.ok, tool).toBe(false);
      if (!outcome.ok) expect(outcome.error, tool).toMatchObject({ success: false, error_code: 'TIMEOUT', tool });
    }
    expect(outcomes.at(-1)).toMatchObject({ ok: true, value: { value: 1 } });
    expect(countMeshEntries(store)).toBe(1);
    expect(countMeshMessages(store)).toEqual({ messages: 0, recipients: 0 });
    holder.close();
    store.close();
  });
});
