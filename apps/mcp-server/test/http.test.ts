/**
 * Streamable HTTP on 127.0.0.1: bearer token required (401), Host header checked
 * (403), loopback origins only, bounded bodies; the real SDK client works with the token.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbFor } from './_backend';
import { SERVER_MAIN, tempDir } from './_harness';
import { announcedUrl } from './_http-server';

const TOKEN = 'test-token-0123456789abcdef';

function raw(
  port: number,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/mcp', method: options.method ?? 'POST', headers: options.headers ?? {} },
      (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('colony MCP over Streamable HTTP', () => {
  let child: ChildProcess;
  let port: number;
  let url: string;

  beforeAll(async () => {
    const home = tempDir('colony-http-');
    child = spawn(
      process.execPath,
      [SERVER_MAIN, '--db', dbFor(join(home, 'colony.db')), '--http', '--port', '0', '--token', TOKEN],
      {
        env: { ...process.env, COLONY_HOME: home },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    url = await announcedUrl(child);
    port = Number(new URL(url).port);
  });

  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('serves tools to the SDK client that sends the bearer token', async () => {
    const client = new Client({ name: 'http-test', version: '0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('search');
    const thread = await client.callTool({
      name: 'task_thread',
      arguments: { repo_root: '/abs/repo', branch: 'main', session_id: 'claude-h', agent: 'claude' },
    });
    expect(thread.isError).toBeFalsy();
    const bad = await client.callTool({
      name: 'recall_session',
      arguments: { target_session_id: 'ghost', current_session_id: 'claude-h' },
    });
    expect(bad.isError).toBe(true);
    expect(JSON.parse((bad.content as Array<{ text: string }>)[0]!.text).code).toBe('SESSION_NOT_FOUND');
    await client.close();
  });

  it('answers 401 without the token or with a wrong one', async () => {
    const headers = {
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const none = await raw(port, { headers, body: initialize });
    expect(none.status).toBe(401);
    const wrong = await raw(port, { headers: { ...headers, authorization: 'Bearer nope' }, body: initialize });
    expect(wrong.status).toBe(401);
  });

  it('answers 403 to a foreign Host header or Origin, even with the token', async () => {
    const base = {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const host = await raw(port, { headers: { ...base, host: `evil.example:${port}` }, body: initialize });
    expect(host.status).toBe(403);
    const otherPort = await raw(port, { headers: { ...base, host: `127.0.0.1:${port + 1}` }, body: initialize });
    expect(otherPort.status).toBe(403);
    const origin = await raw(port, {
      headers: { ...base, host: `localhost:${port}`, origin: 'http://evil.example' },
      body: initialize,
    });
    expect(origin.status).toBe(403);
  });

  it('refuses non-POST methods, bad JSON and oversize bodies, and keeps serving', async () => {
    const base = { host: `127.0.0.1:${port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    expect((await raw(port, { method: 'GET', headers: base })).status).toBe(405);
    expect((await raw(port, { headers: base, body: '{not json' })).status).toBe(400);
    expect((await raw(port, { headers: base, body: 'x'.repeat(5 * 1024 * 1024) })).status).toBe(413);
    const ok = await raw(port, {
      headers: { ...base, accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).result.serverInfo.name).toBe('colony');
  });
});
