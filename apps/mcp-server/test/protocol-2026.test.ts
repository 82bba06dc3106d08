/**
 * MCP revision 2026-07-28: no initialize; each request names its revision, capabilities
 * and identity in `_meta`; `server/discover` tells what the server speaks; results say
 * `resultType`. Raw JSON-RPC as such a client, over stdio and over HTTP, against the built
 * server; the older revisions' handshake is held by handshake.test.ts and http.test.ts.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dbFor } from './_backend';
import { SERVER_MAIN, tempDir } from './_harness';
import { type HttpServer, startHttpServer } from './_http-server';
import { type Message, rawServer } from './_raw-stdio';
import { storeOpened } from './_store-probe';

const MODERN = '2026-07-28';
const meta = (version = MODERN) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'modern-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

function expectDiscovery(result: Message): void {
  expect(result).toMatchObject({
    resultType: 'complete',
    capabilities: { tools: {} },
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'colony' } },
    cacheScope: 'public',
  });
  expect(result.supportedVersions).toEqual([MODERN, ...SUPPORTED_PROTOCOL_VERSIONS]);
  expect(result.instructions).toMatch(/^colony: /);
  expect(result.ttlMs).toBeGreaterThan(0);
}

describe('revision 2026-07-28 over stdio', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  function start() {
    const home = tempDir('colony-modern-');
    const db = join(home, 'colony.db');
    const server = rawServer([SERVER_MAIN, '--db', dbFor(db)], home);
    stops.push(() => server.stop());
    return { server, db };
  }

  it('discovers, lists and calls a tool without initialize, from the front until the call', async () => {
    const { server, db } = start();
    const discover = await server.request('server/discover', { _meta: meta() });
    expectDiscovery(discover.result as Message);
    const list = await server.request('tools/list', { _meta: meta() });
    const listed = list.result as { tools: Array<{ name: string; annotations?: unknown }> } & Message;
    expect(listed).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
    expect(listed.tools.find((tool) => tool.name === 'search')?.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    });
    // The front answered both: nothing opened the store.
    expect(storeOpened(db)).toBe(false);

    const call = await server.request('tools/call', {
      name: 'search',
      arguments: { query: 'nothing yet' },
      _meta: meta(),
    });
    expect(call.result).toEqual({ content: [{ type: 'text', text: '[]' }], resultType: 'complete' });
    // Once the SDK serves, discovery is still answered (the SDK alone would not know it).
    expectDiscovery((await server.request('server/discover', { _meta: meta() })).result as Message);
  });

  it('refuses a revision it does not speak with the list of those it does', async () => {
    const { server } = start();
    const refused = await server.request('tools/list', { _meta: meta('2099-01-01') });
    expect(refused.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: [MODERN, ...SUPPORTED_PROTOCOL_VERSIONS], requested: '2099-01-01' },
    });
    // A legacy client on the same server still negotiates with initialize.
    const init = await server.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'legacy', version: '1' },
    });
    expect((init.result as Message).protocolVersion).toBe('2025-06-18');
  });
});

const TOKEN = 'modern-token-0123456789abcdef';

describe('revision 2026-07-28 over HTTP', () => {
  let server: HttpServer;
  let port: number;

  beforeAll(async () => {
    server = await startHttpServer(TOKEN, 'colony-modern-http-');
    port = server.port;
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** One POST as a modern client: the mirrored headers from the body unless `headers` says otherwise. */
  function post(
    body: Message,
    headers: Record<string, string | undefined> = {},
  ): Promise<{ status: number; body: Message }> {
    const params = (body.params ?? {}) as Message;
    const all: Record<string, string | undefined> = {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': body.method as string,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
      ...headers,
    };
    const sent = Object.fromEntries(
      Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: sent }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  }

  it('discovers, lists and calls a tool, each POST on its own', async () => {
    const discover = await post({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } });
    expect(discover.status).toBe(200);
    expectDiscovery(discover.body.result as Message);
    const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta() } });
    expect(list.status).toBe(200);
    expect(list.body.result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
    const call = await post({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'nothing yet' }, _meta: meta() },
    });
    expect(call).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '[]' }], resultType: 'complete' } },
    });
  });

  it('answers 400 HeaderMismatch when a mirrored header is missing or says other than the body', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'x' }, _meta: meta() },
    };
    for (const headers of [{ 'mcp-name': 'timeline' }, { 'mcp-name': undefined }, { 'mcp-method': undefined }]) {
      const answer = await post(call, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(400);
      expect((answer.body.error as Message).code).toBe(-32020);
    }
    // A name carried Base64-encoded matches once decoded.
    const encoded = `=?base64?${Buffer.from('search').toString('base64')}?=`;
    expect((await post(call, { 'mcp-name': encoded })).status).toBe(200);
  });

  it('answers 400 UnsupportedProtocolVersion to an unknown revision and 404 to an unknown method', async () => {
    const unknown = await post(
      { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: meta('2099-01-01') } },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: -32022, data: { requested: '2099-01-01' } });
    const missing = await post({ jsonrpc: '2.0', id: 6, method: 'prompts/list', params: { _meta: meta() } });
    expect(missing.status).toBe(404);
    expect((missing.body.error as Message).code).toBe(-32601);
  });
});
