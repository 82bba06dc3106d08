/**
 * @module mcp/http
 * Streamable HTTP on loopback only. Every request must carry the bearer token (401
 * otherwise) and a Host header naming this loopback listener (403 otherwise: DNS
 * rebinding); browser Origins other than loopback are refused too. The server is
 * stateless: each POST gets a fresh MCP server over the shared registry.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer, type McpServerOptions } from './_server';

export interface HttpOptions extends McpServerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly token: string;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  readonly maxBodyBytes?: number;
}

export interface HttpHandle {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export async function serveHttp(options: HttpOptions): Promise<HttpHandle> {
  if (options.token.length < 16) throw new Error('the HTTP bearer token must be at least 16 characters');
  const expected = Buffer.from(`Bearer ${options.token}`);
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  let port = options.port;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, { error: 'internal error', detail: String(error) });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const allowedHosts = LOOPBACK_NAMES.map((name) => `${name}:${port}`);
    if (!allowedHosts.includes(req.headers.host ?? '')) {
      return reply(res, 403, { error: `host "${req.headers.host ?? ''}" is not allowed` });
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !LOOPBACK_NAMES.some((name) => origin === `http://${name}:${port}`)) {
      return reply(res, 403, { error: `origin "${origin}" is not allowed` });
    }
    const auth = Buffer.from(req.headers.authorization ?? '');
    if (auth.length !== expected.length || !timingSafeEqual(auth, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="colony"');
      return reply(res, 401, { error: 'missing or wrong bearer token' });
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return reply(res, 404, { error: 'not found: MCP is served at /mcp' });
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return reply(res, 405, { error: 'this server is stateless: use POST /mcp' });
    }
    const body = await readBody(req, maxBody);
    if (body === 'too_large') return reply(res, 413, { error: `request body over ${maxBody} bytes` });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return reply(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    }
    const mcp = createMcpServer(options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, parsed);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}/mcp`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, max: number): Promise<string | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too_large' : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
