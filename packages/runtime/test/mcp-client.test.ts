import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpManager, type McpServersConfig, McpServersSchema, startMcpServers } from '../src/index.js';
import { alive, COLONY_MCP, type HttpColony, ref, startHttpColony, tempHome } from './_mcp.js';

const signal = new AbortController().signal;
const call = (m: McpManager, name: string, input: Record<string, unknown> = {}) =>
  m.executor.execute({ id: 'c', name, input }, { signal });

describe('MCP client against real servers: colony over stdio and Streamable HTTP, a broken one', () => {
  const token = 'test-token-1234567890';
  let http: HttpColony;
  let manager: McpManager;
  const home = tempHome();

  beforeAll(async () => {
    http = await startHttpColony(token);
    const configs: McpServersConfig = McpServersSchema.parse({
      colony: {
        transport: { type: 'stdio', command: process.execPath, args: [COLONY_MCP, '--db', join(home, 'colony.db')] },
        env: { COLONY_HOME: home },
      },
      web: {
        transport: { type: 'http', url: http.url, headers: { Authorization: `Bearer ${ref('COLONY_TEST_TOKEN')}` } },
      },
      broken: { transport: { type: 'stdio', command: join(home, 'no-such-server') } },
      secret: {
        transport: { type: 'http', url: http.url, headers: { Authorization: `Bearer ${ref('COLONY_TEST_UNSET')}` } },
      },
    });
    manager = await startMcpServers(configs, { cwd: home, env: { COLONY_TEST_TOKEN: token } });
  });
  afterAll(async () => {
    await manager?.close();
    await http?.stop();
  });

  it('connects the good servers and fails the others with a warning each', () => {
    const states = manager.servers.map((s) => [s.name, s.transport, s.state]);
    expect(states).toEqual([
      ['colony', 'stdio', 'connected'],
      ['web', 'http', 'connected'],
      ['broken', 'stdio', 'failed'],
      ['secret', 'http', 'failed'],
    ]);
    expect(manager.warnings).toEqual([
      expect.stringMatching(/^MCP server broken failed to start: .*ENOENT/),
      `MCP server secret failed to start: environment variable ${ref('COLONY_TEST_UNSET')} not set`,
    ]);
  });

  it('lists the tools as mcp__<server>__<tool> with their schemas', () => {
    const names = manager.schemas.map((s) => s.name);
    expect(names).toContain('mcp__colony__list_sessions');
    expect(names).toContain('mcp__web__list_sessions');
    expect(names.every((n) => /^mcp__(colony|web)__[a-z_]+$/.test(n))).toBe(true);
    const schema = manager.schemas.find((s) => s.name === 'mcp__colony__list_sessions')!;
    expect(schema.description).toBe('Recent sessions, newest first.');
    expect(schema.input_schema).toMatchObject({ type: 'object', properties: { limit: expect.any(Object) } });
  });

  it('routes a call to the right server and returns its answer', async () => {
    const viaStdio = await call(manager, 'mcp__colony__list_sessions', { limit: 5 });
    expect(viaStdio.is_error).toBe(false);
    expect(JSON.parse(viaStdio.content)).toBeDefined();
    const viaHttp = await call(manager, 'mcp__web__list_sessions', { limit: 5 });
    expect(viaHttp.is_error).toBe(false);
    const refused = await call(manager, 'mcp__colony__list_sessions', { limit: 'many' });
    expect(refused).toMatchObject({ is_error: true, content: expect.stringContaining('INVALID_PARAMETERS') });
    expect(await call(manager, 'mcp__broken__anything')).toEqual({
      content: 'unknown MCP tool mcp__broken__anything',
      is_error: true,
    });
  });

  it('ends the stdio child on close', async () => {
    const pid = manager.servers.find((s) => s.name === 'colony')!.pid!;
    expect(alive(pid)).toBe(true);
    await manager.close();
    expect(alive(pid)).toBe(false);
  });
});
