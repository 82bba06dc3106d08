/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, server mode)
 * against `colony-mcp --http`, on the Node 22 it needs (the `node` package from npm).
 * The suite drives scenarios meant for a server with sample tools, prompts and
 * resources; those colony does not offer are listed in conformance-baseline.yml, and
 * the CLI fails on any other failure and on a listed scenario that now passes.
 *
 * The suite sends no credentials, and colony's HTTP always wants its bearer token: a
 * loopback proxy adds it (and names colony's port in Host when the suite names the
 * proxy's, so a foreign Host still reaches colony as foreign).
 */
import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from './_harness';
import { type HttpServer, startHttpServer } from './_http-server';

// Installed in their own workspace package (test/conformance), whose .bin may hold `node`.
const require = createRequire(join(REPO_ROOT, 'test/conformance/package.json'));
const NODE_22 = join(dirname(require.resolve('node/package.json')), 'bin/node');
const SUITE = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
const BASELINE = join(REPO_ROOT, 'apps/mcp-server/test/conformance-baseline.yml');
const TOKEN = 'conformance-token-0123456789abcdef';
/** The longest the whole suite may take before it is stopped (a bound on the wait, not a timing test). */
const SUITE_BOUND_MS = 240_000;

describe('the MCP conformance suite', () => {
  let colony: HttpServer;
  let proxy: Server;
  let proxyUrl: string;

  beforeAll(async () => {
    colony = await startHttpServer(TOKEN, 'colony-conformance-');
    const port = colony.port;
    proxy = createServer((req, res) => {
      // The proxy's own loopback names become colony's; a foreign Host or Origin stays foreign.
      const own = (value: string | undefined) =>
        value?.replace(
          new RegExp(`^((?:http://)?(?:127\\.0\\.0\\.1|localhost|\\[::1\\])):${proxyPort()}$`),
          `$1:${port}`,
        );
      const host = own(req.headers.host);
      const origin = own(req.headers.origin);
      const upstream = request(
        {
          host: '127.0.0.1',
          port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host, ...(origin ? { origin } : {}), authorization: `Bearer ${TOKEN}` },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.headersSent || res.writeHead(502).end());
      req.pipe(upstream);
    });
    const proxyPort = () => (proxy.address() as AddressInfo).port;
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${proxyPort()}/mcp`;
  });

  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
    await colony?.stop();
  });

  it(
    'fails only the scenarios of its baseline',
    async () => {
      const output = tempDir('colony-conformance-out-');
      const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
        execFile(
          NODE_22,
          [SUITE, 'server', '--url', proxyUrl, '--expected-failures', BASELINE, '-o', output],
          { timeout: SUITE_BOUND_MS, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
          (error, stdout, stderr) => {
            const code = error ? ((error as { code?: number }).code ?? null) : 0;
            resolve({ code: typeof code === 'number' ? code : null, out: `${stdout}\n${stderr}` });
          },
        );
      });
      expect(run.code, run.out.slice(-6_000)).toBe(0);
    },
    SUITE_BOUND_MS + 30_000,
  );
});
