/**
 * The seed-001 surface as a library: getSchemas() on a colony and standalone, every
 * mesh tool through handleToolCall, receipts keeping the code of a seed-shaped
 * refusal, and the Orchestrator naming the caller of a mesh tool itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listReceipts, openStore } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { type Colony, getSchemas, manualClock, Orchestrator, openColony } from '../src/index';

const START = Date.UTC(2026, 0, 1);
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setUp(): Colony {
  const home = mkdtempSync(join(tmpdir(), 'colony-mesh-'));
  const colony = openColony({ home, clock: manualClock(START) });
  cleanups.push(async () => {
    await colony.close();
    rmSync(home, { recursive: true, force: true });
  });
  return colony;
}

async function value(colony: Colony, tool: string, args: Record<string, unknown>) {
  const outcome = await colony.handleToolCall(tool, args);
  if (!outcome.ok) throw new Error(`${tool}: ${outcome.text}`);
  return outcome.value as Record<string, unknown>;
}

describe('getSchemas', () => {
  it('is the same on a colony and standalone: the seven seed-001 tools', () => {
    const colony = setUp();
    expect(colony.getSchemas()).toStrictEqual(getSchemas());
    expect(getSchemas().map((s) => s.function.name)).toEqual([
      'get_context',
      'push_context',
      'list_context_keys',
      'send_message_to_agent',
      'get_messages_from_agents',
      'broadcast_message_to_agents',
      'batch_context_operation',
    ]);
  });
});

describe('handleToolCall', () => {
  it('runs every mesh tool, in and out of the framework toolset', async () => {
    const colony = setUp();
    await value(colony, 'push_context', { agent_name: 'A', key: 'user_metrics', value: { n: 1 }, subscribers: ['B'] });
    expect(await value(colony, 'get_context', { agent_name: 'B', key: 'user_metrics' })).toMatchObject({
      success: true,
      value: { n: 1 },
    });
    expect(await value(colony, 'list_context_keys', { agent_name: 'B', pattern: 'user_*' })).toMatchObject({
      keys: ['user_metrics'],
    });
    const batch = await colony.handleToolCall(
      'batch_context_operation',
      { agent_name: 'A', operations: [{ type: 'get', key: 'user_metrics' }] },
      { toolset: 'framework' },
    );
    expect(batch).toMatchObject({ ok: true, value: { succeeded: 1 } });
    await value(colony, 'send_message_to_agent', { from_agent: 'A', to_agent: 'B', message: 'direct' });
    await value(colony, 'broadcast_message_to_agents', { from_agent: 'A', to_agents: ['B', 'C'], message: 'all' });
    expect(await value(colony, 'get_messages_from_agents', { agent_name: 'B' })).toMatchObject({ count: 2 });
    const refused = await colony.handleToolCall('get_context', { agent_name: 'A' }, { toolset: 'all' });
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'UNKNOWN_TOOL' });
  });

  it('records the code of a seed-shaped refusal in its receipt', async () => {
    const colony = setUp();
    await value(colony, 'push_context', { agent_name: 'A', key: 'k', value: 1, subscribers: ['B'] });
    const refused = await colony.handleToolCall('get_context', { agent_name: 'C', key: 'k' });
    expect(refused.ok ? null : refused.error).toMatchObject({ success: false, error_code: 'ACCESS_DENIED' });
    await colony.close(); // receipts are counted on a worker and written at the latest on close
    const store = openStore({ path: colony.dbPath });
    try {
      const receipt = listReceipts(store, 0).find((r) => r.operation === 'get_context');
      expect(receipt).toMatchObject({ ok: false, errorCode: 'ACCESS_DENIED' });
    } finally {
      store.close();
    }
  });
});

describe('the Orchestrator', () => {
  it('sets agent_name and from_agent itself, whatever the model wrote', async () => {
    const colony = setUp();
    await value(colony, 'push_context', { agent_name: 'Owner', key: 'secret', value: 's', subscribers: ['Gemini'] });
    const gemini = new Orchestrator({ colony, agent: 'Gemini', repoRoot: tmpdir() });
    const mallory = new Orchestrator({ colony, agent: 'Mallory', repoRoot: tmpdir() });
    const reply = JSON.stringify({
      tool_calls: [
        { name: 'get_context', args: { agent_name: 'Gemini', key: 'secret' } },
        { name: 'send_message_to_agent', args: { from_agent: 'Gemini', to_agent: 'Owner', message: 'hello' } },
        { name: 'get_messages_from_agents', args: { agent_name: 'Owner', from_agent: 'Gemini' } },
      ],
    });
    const asMallory = await mallory.handleReply(reply);
    expect(asMallory.calls[0]).toMatchObject({ ok: false, error: { error_code: 'ACCESS_DENIED' } });
    // get_messages_from_agents: agent_name is the caller; from_agent stays a filter.
    expect(asMallory.calls[2]).toMatchObject({ ok: true, result: { count: 0 } });
    const asGemini = await gemini.handleReply(reply);
    expect(asGemini.calls[0]).toMatchObject({ ok: true, result: { value: 's' } });
    expect(asGemini.calls[2]).toMatchObject({ ok: true, result: { count: 0 } });
    const owner = await value(colony, 'get_messages_from_agents', { agent_name: 'Owner' });
    expect((owner.messages as Array<{ from_agent: string }>).map((m) => m.from_agent)).toEqual(['Mallory', 'Gemini']);
  });
});
