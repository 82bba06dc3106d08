import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type McpManager, McpServersSchema, startMcpServers } from '../src/index.js';
import { alive, ECHO_SERVER, ref, tempHome } from './_mcp.js';

const signal = new AbortController().signal;
const call = (m: McpManager, name: string, input: Record<string, unknown> = {}) =>
  m.executor.execute({ id: 'c', name, input }, { signal });

describe('MCP client: a stdio fixture made with the SDK', () => {
  it('passes env (with variable references expanded) and cwd to the server, and reports tool errors as errors', async () => {
    const dir = tempHome('colony-mcp-cwd-');
    const manager = await startMcpServers(
      McpServersSchema.parse({
        fixture: {
          transport: { type: 'stdio', command: process.execPath, args: [ECHO_SERVER], cwd: dir },
          env: { GREETING: `hello ${ref('WHO:-nobody')}`, PLAIN: ref('WHO') },
        },
      }),
      { cwd: '/', env: { WHO: 'colony' } },
    );
    try {
      expect(manager.warnings).toEqual([]);
      expect(manager.schemas.map((s) => s.name)).toEqual([
        'mcp__fixture__echo',
        'mcp__fixture__env',
        'mcp__fixture__fail',
      ]);
      expect(await call(manager, 'mcp__fixture__echo', { text: 'hi' })).toEqual({ content: 'hi', is_error: false });
      expect((await call(manager, 'mcp__fixture__env', { name: 'GREETING' })).content).toBe(`hello colony in ${dir}`);
      expect(await call(manager, 'mcp__fixture__fail')).toEqual({ content: 'it failed', is_error: true });
    } finally {
      await manager.close();
    }
  });

  it('bounds the startup: a server that never answers fails after the timeout and its process is gone', async () => {
    const started = performance.now();
    const pidFile = join(tempHome('colony-mcp-mute-'), 'pid');
    const mute = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`;
    const manager = await startMcpServers(
      McpServersSchema.parse({
        mute: {
          transport: { type: 'stdio', command: process.execPath, args: ['-e', mute] },
          startup_timeout_secs: 1,
        },
        fixture: { transport: { type: 'stdio', command: process.execPath, args: [ECHO_SERVER] } },
      }),
      { cwd: '/' },
    );
    try {
      expect(performance.now() - started).toBeLessThan(8_000);
      expect(manager.servers.map((s) => [s.name, s.state])).toEqual([
        ['mute', 'failed'],
        ['fixture', 'connected'],
      ]);
      expect(manager.servers[0]!.reason).toContain('no answer within 1000 ms');
      expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
    } finally {
      await manager.close();
    }
  });
});

describe('mcpServers settings schema', () => {
  it('accepts the seed shapes and refuses a bad type, a missing url or a name with "__"', () => {
    expect(
      McpServersSchema.safeParse({
        a: { transport: { type: 'stdio', command: 'x', args: ['y'] }, env: { K: 'v' } },
        'b-2': { transport: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { A: 'b' } } },
        c_3: { transport: { type: 'sse', url: 'http://127.0.0.1:1/sse' }, startup_timeout_secs: 5 },
      }).success,
    ).toBe(true);
    const bad = (v: unknown) => McpServersSchema.safeParse(v).success;
    expect(bad({ a: { transport: { type: 'ws', url: 'ws://x' } } })).toBe(false);
    expect(bad({ a: { transport: { type: 'http' } } })).toBe(false);
    expect(bad({ a: { transport: { type: 'stdio', command: 'x' }, extra: 1 } })).toBe(false);
    expect(bad({ a__b: { transport: { type: 'stdio', command: 'x' } } })).toBe(false);
  });
});
