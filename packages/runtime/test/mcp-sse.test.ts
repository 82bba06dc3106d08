/**
 * The legacy HTTP+SSE transport against a server made with the MCP SDK on 127.0.0.1 in
 * this process: the configured headers (with `${VAR}` expanded) reach both the event
 * stream and the posted messages, and a call is answered.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServersSchema, startMcpServers } from '../src/index.js';
import { ref } from './_mcp.js';

describe('MCP client over SSE', () => {
  const seen: IncomingHttpHeaders[] = [];
  const transports = new Map<string, SSEServerTransport>();
  let http: Server;
  let base = '';

  beforeAll(async () => {
    http = createServer(async (req, res) => {
      seen.push(req.headers);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        const server = new McpServer({ name: 'sse-fixture', version: '1.0.0' });
        server.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) => ({
          content: [{ type: 'text', text: `sse: ${text}` }],
        }));
        await server.connect(transport);
        return;
      }
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (req.method === 'POST' && transport) return transport.handlePostMessage(req, res);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const t of transports.values()) await t.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it('sends the headers on the stream and the posts, and routes a call', async () => {
    const manager = await startMcpServers(
      McpServersSchema.parse({
        events: { transport: { type: 'sse', url: `${base}/sse`, headers: { 'X-Token': `t-${ref('SSE_TOKEN')}` } } },
      }),
      { cwd: '/', env: { SSE_TOKEN: 'abc' } },
    );
    try {
      expect(manager.servers).toMatchObject([{ name: 'events', transport: 'sse', state: 'connected' }]);
      expect(manager.schemas.map((s) => s.name)).toEqual(['mcp__events__echo']);
      const out = await manager.executor.execute(
        { id: '1', name: 'mcp__events__echo', input: { text: 'hi' } },
        { signal: new AbortController().signal },
      );
      expect(out).toEqual({ content: 'sse: hi', is_error: false });
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.every((h) => h['x-token'] === 't-abc')).toBe(true);
    } finally {
      await manager.close();
    }
  });
});
