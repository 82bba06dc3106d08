/**
 * @module mcp/http
 * Streamable HTTP on loopback only. Every request must carry the bearer token (401
 * otherwise) and a Host header naming this loopback listener (403 otherwise: DNS
 * rebinding); browser Origins other than loopback are refused too. The server is
 * stateless: each POST gets a fresh MCP server over the shared registry.
 *
 * Exhaustion without the token is bounded (HTTP_LIMITS): headers must arrive within
 * seconds and a whole request soon after, keep-alive idles briefly, a refused request
 * closes its connection, and at most `connections` sockets are open: a new one evicts
 * the oldest that has not yet passed authentication, so idle strangers can never keep
 * an authenticated client out (nor run the process out of descriptors).
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { answerModernHttp } from './_http-modern';
import { MODERN_PROTOCOL_VERSIONS, type ModernServer, supportedVersions, unsupportedVersion } from './_modern';
import { createMcpServer, type McpServerOptions, mcpHandshake } from './_server';

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

/** The bounds on what an unauthenticated client can hold open. */
export const HTTP_LIMITS = {
  /** Open sockets at most (well under the common 1,024-descriptor limit). */
  connections: 256,
  /** Time from connecting to a request's complete headers. */
  headersMs: 5_000,
  /** Time from connecting to a request's complete body. */
  requestMs: 8_000,
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: 5_000,
  /** How often the timeouts above are checked. */
  checkEveryMs: 500,
} as const;

const HOST = '127.0.0.1';
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export async function serveHttp(options: HttpOptions): Promise<HttpHandle> {
  if (options.token.length < 16) throw new Error('the HTTP bearer token must be at least 16 characters');
  const expected = Buffer.from(`Bearer ${options.token}`);
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  let port = options.port;
  /** What discovery tells, from a live initialize exchange (once, on the first request naming a revision). */
  let modern: Promise<ModernServer> | undefined;
  const modernServer = () => {
    modern ??= mcpHandshake(options.registry).then(({ protocol, capabilities }) => ({
      protocol,
      capabilities,
      identity: {
        name: options.name ?? 'colony',
        version: options.version,
        ...(options.instructions ? { instructions: options.instructions } : {}),
      },
    }));
    return modern;
  };

  const server = createServer(
    {
      headersTimeout: HTTP_LIMITS.headersMs,
      requestTimeout: HTTP_LIMITS.requestMs,
      keepAliveTimeout: HTTP_LIMITS.keepAliveMs,
      connectionsCheckingInterval: HTTP_LIMITS.checkEveryMs,
    },
    (req, res) => {
      requested.add(req.socket);
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) reply(res, 500, { error: 'internal error', detail: String(error) });
        else res.end();
      });
    },
  );
  /** Open sockets, oldest first; those that passed authentication are never evicted. */
  const sockets = new Set<Socket>();
  const trusted = new WeakSet<Socket>();
  /** Sockets whose first request's headers arrived (node's headersTimeout spares silent ones). */
  const requested = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    const silent = setTimeout(() => requested.has(socket) || socket.destroy(), HTTP_LIMITS.headersMs);
    silent.unref();
    socket.once('close', () => {
      sockets.delete(socket);
      clearTimeout(silent);
    });
    if (sockets.size <= HTTP_LIMITS.connections) return;
    for (const old of sockets) {
      if (old === socket || trusted.has(old)) continue;
      sockets.delete(old);
      old.destroy();
      return;
    }
    sockets.delete(socket);
    socket.destroy();
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
    trusted.add(req.socket);
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
    // Revision 2026-07-28 is answered apart (the SDK transport refuses its header), and a
    // revision nobody here speaks gets the revision's own refusal, which lists ours.
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string') {
      const server = await modernServer();
      const supported = supportedVersions(server);
      if (!supported.includes(version)) return reply(res, 400, unsupportedVersion(idOf(parsed), version, supported));
      if (MODERN_PROTOCOL_VERSIONS.includes(version)) {
        const answer = await answerModernHttp(req, parsed, version, server, options);
        res.writeHead(answer.status, answer.body ? { 'content-type': 'application/json' } : {});
        return void res.end(answer.body ? JSON.stringify(answer.body) : undefined);
      }
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

function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A refusal; its connection closes (no keep-alive for a request that was refused). */
function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
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
