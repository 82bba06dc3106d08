/**
 * The seed-001 tools over MCP: a real colony-mcp process with `--toolset framework`,
 * driven by the MCP SDK client over stdio. tools/list carries the seed's exact
 * schemas; a restricted key is invisible and unreadable to others (get, list, batch);
 * a failing atomic batch leaves the store as it was (rows counted in the store);
 * TTLs run out on the server's clock (COLONY_CLOCK_FILE); refusals have the seed's
 * shape with isError.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countMeshEntries, countMeshMessages } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { type Server, setClock, startServer, tempDir } from './_harness';

const T0 = Date.UTC(2026, 3, 1);
const SEED = JSON.parse(
  readFileSync(new URL('../../../packages/tools/test/fixtures/seed-001-schemas.json', import.meta.url), 'utf8'),
) as Array<{ function: { name: string; description: string; parameters: unknown } }>;

describe('context mesh and messages over MCP', () => {
  let server: Server;
  let dir: string;
  let db: string;
  let clockFile: string;

  /** Rows in the database the server writes, read from this process. */
  async function counts() {
    const store = await openTestStore(db);
    try {
      return { entries: await countMeshEntries(store), ...(await countMeshMessages(store)) };
    } finally {
      await store.close();
    }
  }

  beforeAll(async () => {
    dir = tempDir();
    db = join(dir, 'colony.db');
    clockFile = join(dir, 'clock');
    setClock(clockFile, T0);
    server = await startServer({ db, home: dir, toolset: 'framework', clockFile });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("lists the seven tools with the seed's exact descriptions and input schemas", async () => {
    const { tools } = await server.client.listTools();
    for (const expected of SEED) {
      const tool = tools.find((t) => t.name === expected.function.name);
      expect(tool, expected.function.name).toBeDefined();
      expect(tool!.description).toBe(expected.function.description);
      expect(tool!.inputSchema).toStrictEqual(expected.function.parameters);
    }
  });

  it('pushes, reads and lists context; a restricted key is invisible and unreadable to others', async () => {
    const pushed = await server.call('push_context', {
      agent_name: 'DataCollector',
      key: 'metrics_daily',
      value: { users: 1500, revenue: 50000 },
      subscribers: ['DataAnalyst'],
    });
    expect(pushed).toMatchObject({
      isError: false,
      payload: { success: true, version: 1, subscribers: ['DataAnalyst'] },
    });
    await server.call('push_context', { agent_name: 'DataCollector', key: 'metrics_public', value: 7 });

    const read = await server.call('get_context', { agent_name: 'DataAnalyst', key: 'metrics_daily' });
    expect(read.payload).toMatchObject({
      success: true,
      value: { users: 1500, revenue: 50000 },
      owner: 'DataCollector',
    });

    const denied = await server.call('get_context', { agent_name: 'Intruder', key: 'metrics_daily' });
    expect(denied.isError).toBe(true);
    expect(denied.payload).toEqual({
      success: false,
      error: 'agent "Intruder" may not access context key "metrics_daily"',
      error_code: 'ACCESS_DENIED',
      tool: 'get_context',
      timestamp: new Date(T0).toISOString(),
      key: 'metrics_daily',
    });
    expect(denied.text).not.toContain('1500');

    expect(
      (await server.call('list_context_keys', { agent_name: 'DataAnalyst', pattern: 'metrics_*' })).payload,
    ).toEqual({
      success: true,
      keys: ['metrics_daily', 'metrics_public'],
      count: 2,
    });
    expect((await server.call('list_context_keys', { agent_name: 'Intruder', pattern: 'metrics_*' })).payload).toEqual({
      success: true,
      keys: ['metrics_public'],
      count: 1,
    });

    const viaBatch = await server.call('batch_context_operation', {
      agent_name: 'Intruder',
      operations: [{ type: 'get', key: 'metrics_daily' }],
      atomic: false,
    });
    expect(viaBatch.payload.results[0]).toMatchObject({ success: false, error_code: 'ACCESS_DENIED' });
    expect(JSON.stringify(viaBatch.payload)).not.toContain('1500');
    const deleteDenied = await server.call('batch_context_operation', {
      agent_name: 'Intruder',
      operations: [{ type: 'delete', key: 'metrics_daily' }],
    });
    expect(deleteDenied.payload).toMatchObject({ success: false, error_code: 'ACCESS_DENIED', failed_index: 0 });
    expect((await server.call('get_context', { agent_name: 'DataAnalyst', key: 'metrics_daily' })).isError).toBe(false);
  });

  it('rolls a failing atomic batch back whole: the rows in the database do not change', async () => {
    await server.call('push_context', { agent_name: 'DataManager', key: 'temp_data', value: 'scratch' });
    const before = await counts();
    const refused = await server.call('batch_context_operation', {
      agent_name: 'DataManager',
      operations: [
        { type: 'push', key: 'user_count', value: 1500 },
        { type: 'push', key: 'active_sessions', value: 245 },
        { type: 'delete', key: 'temp_data' },
        { type: 'get', key: 'previous_metrics' },
      ],
      atomic: true,
    });
    expect(refused).toMatchObject({
      isError: true,
      payload: { success: false, error_code: 'KEY_NOT_FOUND', failed_index: 3, rolled_back: true },
    });
    expect(await counts()).toEqual(before);
    for (const key of ['user_count', 'active_sessions']) {
      expect((await server.call('get_context', { agent_name: 'DataManager', key })).payload.error_code).toBe(
        'KEY_NOT_FOUND',
      );
    }
    expect((await server.call('get_context', { agent_name: 'DataManager', key: 'temp_data' })).payload.value).toBe(
      'scratch',
    );

    const applied = await server.call('batch_context_operation', {
      agent_name: 'DataManager',
      operations: [
        { type: 'push', key: 'user_count', value: 1500 },
        { type: 'push', key: 'previous_metrics', value: { users: 1400 } },
        { type: 'get', key: 'previous_metrics' },
        { type: 'delete', key: 'temp_data' },
      ],
    });
    expect(applied.payload).toMatchObject({ success: true, atomic: true, succeeded: 4, failed: 0 });
    expect((await counts()).entries).toBe(before.entries + 1);
  });

  it("expires a key when the server's clock passes its ttl", async () => {
    await server.call('push_context', { agent_name: 'A', key: 'session_token', value: 'abc', ttl: 3600 });
    setClock(clockFile, T0 + 3_599_000);
    expect((await server.call('get_context', { agent_name: 'B', key: 'session_token' })).payload).toMatchObject({
      value: 'abc',
      expires_at: T0 + 3_600_000,
    });
    setClock(clockFile, T0 + 3_600_000);
    expect((await server.call('get_context', { agent_name: 'B', key: 'session_token' })).payload.error_code).toBe(
      'KEY_NOT_FOUND',
    );
    expect((await server.call('list_context_keys', { agent_name: 'B', pattern: 'session_*' })).payload.keys).toEqual(
      [],
    );
    setClock(clockFile, T0);
  });

  it('sends, broadcasts and reads messages with filters, marking them read', async () => {
    const direct = await server.call('send_message_to_agent', {
      from_agent: 'TaskManager',
      to_agent: 'DataProcessor',
      message: 'Please process the new user data file',
      message_type: 'task',
      priority: 'high',
      requires_confirmation: true,
    });
    expect(direct.payload).toMatchObject({ success: true, to_agent: 'DataProcessor', thread_id: null });
    const sent = await server.call('broadcast_message_to_agents', {
      from_agent: 'SystemManager',
      to_agents: ['DataProcessor', 'FileHandler', 'Logger'],
      message: 'System maintenance scheduled for 3 PM',
      message_type: 'info',
      priority: 'normal',
      create_thread: true,
    });
    expect(sent.payload).toMatchObject({ success: true, count: 3, thread_id: `thread-${sent.payload.message_id}` });

    const tasks = await server.call('get_messages_from_agents', {
      agent_name: 'DataProcessor',
      unread_only: true,
      priority: 'high',
      message_type: 'task',
      mark_as_read: true,
    });
    expect(tasks.payload).toMatchObject({ success: true, count: 1, marked_read: 1, unread_remaining: 1 });
    expect(tasks.payload.messages[0]).toMatchObject({
      from_agent: 'TaskManager',
      message: 'Please process the new user data file',
      requires_confirmation: true,
    });
    const confirmation = await server.call('get_messages_from_agents', { agent_name: 'TaskManager' });
    expect(confirmation.payload.messages[0]).toMatchObject({
      from_agent: 'DataProcessor',
      confirms_message_id: direct.payload.message_id,
    });
    const thread = await server.call('get_messages_from_agents', {
      agent_name: 'Logger',
      thread_id: sent.payload.thread_id,
    });
    expect(thread.payload.messages.map((m: { message: string }) => m.message)).toEqual([
      'System maintenance scheduled for 3 PM',
    ]);
    const outsider = await server.call('send_message_to_agent', {
      from_agent: 'Mallory',
      to_agent: 'Logger',
      message: 'join',
      thread_id: sent.payload.thread_id,
    });
    expect(outsider).toMatchObject({ isError: true, payload: { success: false, error_code: 'ACCESS_DENIED' } });
    expect(await counts()).toMatchObject({ messages: 3, recipients: 5 });
  });

  it('answers INVALID_AGENT and INVALID_PARAMETERS in the seed shape, writing nothing', async () => {
    const before = await counts();
    const badName = await server.call('send_message_to_agent', { from_agent: '', to_agent: 'B', message: 'hi' });
    expect(badName).toMatchObject({ isError: true, payload: { success: false, error_code: 'INVALID_AGENT' } });
    const badArgs = await server.call('push_context', { agent_name: 'A', key: 'k' });
    expect(badArgs).toMatchObject({
      isError: true,
      payload: { success: false, error_code: 'INVALID_PARAMETERS', tool: 'push_context' },
    });
    expect(badArgs.payload).not.toHaveProperty('code');
    expect(await counts()).toEqual(before);
  });
});
