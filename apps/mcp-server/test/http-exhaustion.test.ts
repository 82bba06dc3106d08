/**
 * Streamable HTTP without the token cannot exhaust the server (issue 12): a colony-mcp
 * process limited to 1,024 descriptors (prlimit) keeps serving an authenticated client
 * while 1,100 idle unauthenticated sockets are open; an idle socket and a slow body
 * are cut within seconds; a refused request does not keep its connection alive.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MAIN, tempDir } from './_harness';
import { announcedUrl } from './_http-server';

const TOKEN = 'test-token-0123456789abcdef';
const FD_LIMIT = 1024;
const IDLE_SOCKETS = 1_100;

function hasPrlimit(): boolean {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Resolves with how long (ms) until the server closed the socket, or `Infinity` after `within`. */
function closedWithin(socket: Socket, within: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(Number.POSITIVE_INFINITY), within);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => {});
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => resolve(socket));
  });
}

describe.skipIf(!hasPrlimit())('HTTP exhaustion without the token', () => {
  let child: ChildProcess;
  let port: number;
  let url: string;

  beforeAll(async () => {
    const home = tempDir('colony-http-');
    const limit = `--nofile=${FD_LIMIT}:${FD_LIMIT}`;
    const args = [limit, process.execPath, SERVER_MAIN, '--db', join(home, 'colony.db'), '--http', '--port', '0'];
    child = spawn('prlimit', [...args, '--token', TOKEN], {
      env: { ...process.env, COLONY_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await announcedUrl(child);
    port = Number(new URL(url).port);
  });

  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it(`serves an authenticated client while ${IDLE_SOCKETS} idle sockets are open`, async () => {
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < IDLE_SOCKETS; i += 100) {
        sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => open(port)))));
      }
      const client = new Client({ name: 'http-exhaustion', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        }),
        { timeout: 5_000 },
      );
      const result = await client.callTool({ name: 'search', arguments: { query: 'x' } }, undefined, {
        timeout: 5_000,
      });
      expect(result.isError).toBeFalsy();
      await client.close();
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    expect(child.exitCode).toBeNull();
  }, 15_000);

  it('cuts an idle socket and a slow body within seconds, and closes a refused request', async () => {
    const idle = await open(port);
    const slow = await open(port);
    slow.write(
      `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${TOKEN}\r\n` +
        'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{',
    );
    const drip = setInterval(() => slow.writable && slow.write(' '), 500);
    const refused = await open(port);
    let answer = '';
    refused.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    refused.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 2\r\n\r\n{}`);
    try {
      const [idleMs, slowMs, refusedMs] = await Promise.all([
        closedWithin(idle, 12_000),
        closedWithin(slow, 12_000),
        closedWithin(refused, 12_000),
      ]);
      expect(answer).toMatch(/^HTTP\/1\.1 401/);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(refusedMs).toBeLessThan(1_000);
      expect(idleMs).toBeLessThan(7_000);
      expect(slowMs).toBeLessThan(11_000);
    } finally {
      clearInterval(drip);
      for (const socket of [idle, slow, refused]) socket.destroy();
    }
  }, 15_000);
});
