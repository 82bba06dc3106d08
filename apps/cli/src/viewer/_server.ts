/**
 * @module viewer/server
 * `colony viewer`'s HTTP server: bound to 127.0.0.1 only, read-only (GET and HEAD),
 * and deaf to any Host header but 127.0.0.1:<port> or localhost:<port> (403), so a
 * web page on another origin cannot reach it through DNS rebinding. It serves one
 * page, its static files, a JSON endpoint per panel and a Server-Sent Events stream
 * that pushes a panel again whenever its answer changes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Colony } from '@swarm/core';
import pkg from '../../package.json' with { type: 'json' };
import { type Asset, loadAssets } from './_assets';
import { type Envelope, isPanel, PANELS, ViewerData } from './_data';
import { firstPaint } from './_first-paint';
import type { ViewerScope } from './_scope';
import { parseQuery } from './_search-view';
import { PanelStream } from './_stream';
import { parseTaskId } from './_thread-view';

export const DEFAULT_VIEWER_PORT = 7780;
/** How often the live stream re-reads the panels. */
export const DEFAULT_REFRESH_MS = 2_000;

export interface ViewerOptions {
  readonly colony: Colony;
  /** Port on 127.0.0.1 (default 7780; 0 picks a free one). */
  readonly port?: number;
  readonly scope?: ViewerScope;
  readonly refreshMs?: number;
}

export interface ViewerHandle {
  readonly url: string;
  readonly port: number;
  /** Stops serving (open streams are ended); the colony stays open: its owner closes it. */
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
} as const;

export async function startViewer(options: ViewerOptions): Promise<ViewerHandle> {
  const assets = loadAssets();
  const data = new ViewerData(options.colony, options.scope ?? {});
  const refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
  const stream = new PanelStream(data, refreshMs);
  let allowedHosts: ReadonlySet<string> = new Set();
  const index = assets.get('/')?.body.toString('utf8');
  const index_type = assets.get('/')?.type ?? 'text/html; charset=utf-8';
  const meta = () => ({
    version: pkg.version,
    generated_at: data.now(),
    refresh_ms: refreshMs,
    panels: PANELS,
    scope: {
      repo_root: data.scope.repoRoot ?? null,
      session_id: data.scope.sessionId ?? null,
      agent: data.scope.agent ?? null,
      inbox: data.scope.sessionId ? 'session' : 'fleet',
    },
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `viewer error: ${String(error)}`);
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
      return send(
        res,
        403,
        'text/plain; charset=utf-8',
        'forbidden: the viewer answers only to 127.0.0.1 or localhost',
      );
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'text/plain; charset=utf-8', 'the viewer is read-only');
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (path === '/' && index) {
      const page = firstPaint(index, await data.panels(), meta());
      return send(res, 200, index_type, page, req.method === 'HEAD');
    }
    const asset: Asset | undefined = assets.get(path);
    if (asset) return send(res, 200, asset.type, asset.body, req.method === 'HEAD');
    if (path === '/api/events') return stream.attach(req, res, SECURITY_HEADERS);
    if (path === '/api/meta') return sendJson(res, meta());
    if (path === '/api/thread')
      return sendEnvelope(res, await data.thread(() => parseTaskId(url.searchParams.get('task_id'))));
    if (path === '/api/search')
      return sendEnvelope(res, await data.search(() => parseQuery(url.searchParams.get('q'))));
    const panel = path.startsWith('/api/') ? path.slice('/api/'.length) : '';
    if (isPanel(panel)) return sendJson(res, await data.panel(panel));
    return send(res, 404, 'text/plain; charset=utf-8', `not found: ${path.slice(0, 100)}`);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_VIEWER_PORT, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: async () => {
      stream.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headOnly = false): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(headOnly ? undefined : body);
}

function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** An answer with a refusal keeps its envelope; the status says what kind of refusal it is. */
const ERROR_STATUS: Record<string, number> = { BAD_REQUEST: 400, TASK_NOT_FOUND: 404, OBSERVATION_NOT_FOUND: 404 };

function sendEnvelope(res: ServerResponse, envelope: Envelope): void {
  sendJson(res, envelope, envelope.error ? (ERROR_STATUS[envelope.error.code] ?? 500) : 200);
}
