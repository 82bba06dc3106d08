/**
 * The stdio server warms up once the handshake is done (notifications/initialized):
 * it loads the SDK server and opens colony in idle time, so a client's first tool call
 * costs about a warm one. Here, over raw JSON-RPC lines to real colony-mcp processes,
 * the warm-up changes nothing a client can see: a store that cannot open answers the
 * first call with the same coded error (reported once), and a server never called
 * exits cleanly when its stdin closes, during or after the warm-up.
 */
import { join } from 'node:path';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { dbFor } from './_backend';
import { SERVER_MAIN, tempDir } from './_harness';
import { rawServer, until } from './_raw-stdio';
import { storeOpened, UNOPENABLE } from './_store-probe';

const servers: Array<ReturnType<typeof rawServer>> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

const init = {
  protocolVersion: SUPPORTED_PROTOCOL_VERSIONS[0]!,
  capabilities: {},
  clientInfo: { name: 'warm-up-test', version: '1.0.0' },
};

/** A colony-mcp process on `--db db` past its handshake; `warm: false` sets COLONY_MCP_WARM=0. */
async function handshaken(db: string, warm = true) {
  const server = rawServer([SERVER_MAIN, '--db', db], tempDir('colony-warm-'), warm ? {} : { COLONY_MCP_WARM: '0' });
  servers.push(server);
  await server.request('initialize', init);
  server.notify('notifications/initialized');
  return server;
}

const exited = (server: ReturnType<typeof rawServer>) =>
  new Promise<number | null>((resolve) => {
    if (server.child.exitCode !== null) resolve(server.child.exitCode);
    else server.child.once('exit', (code) => resolve(code));
  });

/** The first call's answer without its timestamp, and how often stderr says the store failed. */
async function firstCallOnBrokenStore(warm: boolean) {
  const server = await handshaken(UNOPENABLE.db, warm);
  // Let a warm-up run (and fail) before the call, as a client's seconds of think time do.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const call = await server.request('tools/call', { name: 'search', arguments: { query: 'anything' } });
  const result = call.result as { isError: boolean; content: Array<{ text: string }> };
  const { timestamp, ...payload } = JSON.parse(result.content[0]!.text);
  expect(timestamp).toEqual(expect.any(String));
  return { isError: result.isError, payload, reports: server.stderr().match(/cannot open colony/g)?.length ?? 0 };
}

describe('colony-mcp warm-up after the handshake', () => {
  it('answers the first call on a store that cannot open with the same coded error, reported once', async () => {
    const [warm, cold] = await Promise.all([firstCallOnBrokenStore(true), firstCallOnBrokenStore(false)]);
    expect(warm).toEqual(cold);
    expect(warm).toMatchObject({
      isError: true,
      payload: {
        code: UNOPENABLE.code,
        error: expect.stringMatching(/^cannot open colony: .*ENOENT/),
        tool: 'search',
      },
      reports: 1,
    });
  });

  it('opens the store before any call, and a server never called exits cleanly on stdin close', async () => {
    const db = join(tempDir(), 'colony.db');
    const server = await handshaken(dbFor(db));
    await until(() => storeOpened(db));
    const code = exited(server);
    server.child.stdin.end();
    expect(await code).toBe(0);
    expect(server.stderr()).toBe('');
  });

  it('exits cleanly when stdin closes while the warm-up is still under way', async () => {
    const db = join(tempDir(), 'colony.db');
    const server = await handshaken(dbFor(db));
    const code = exited(server);
    server.child.stdin.end();
    expect(await code).toBe(0);
    expect(server.stderr()).toBe('');
  });

  it('does not open the store when COLONY_MCP_WARM=0', async () => {
    const db = join(tempDir(), 'colony.db');
    const server = await handshaken(dbFor(db), false);
    expect(await server.request('ping')).toMatchObject({ result: {} });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(storeOpened(db)).toBe(false);
  });
});
