/**
 * The shipped servers (colony-mcp and `colony mcp`) answer the MCP handshake from data
 * computed at build time. Here, over raw JSON-RPC lines to the built binaries: those
 * answers equal what the SDK server over the live registry answers, nothing opens the
 * store before the handshake is done (then the server warms up: warm-up.test.ts), and a
 * store that cannot open fails the first call (and the next), not the server.
 */
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type JSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { openColony, type Toolset } from '@swarm/core';
import { TOOLSETS } from '@swarm/tools';
import { createMcpServer, mcpToolList } from '@swarm/tools/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { dbFor } from './_backend';
import { REPO_ROOT, SERVER_MAIN, tempDir } from './_harness';
import { type Message, rawServer, until } from './_raw-stdio';
import { storeOpened, UNOPENABLE } from './_store-probe';

const CLI = join(REPO_ROOT, 'apps/cli/dist/cli.js');
const BINARIES = { 'colony-mcp': [SERVER_MAIN], 'colony mcp': [CLI, 'mcp'] } as const;

const servers: Array<ReturnType<typeof rawServer>> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/**
 * The client declares roots (initParams) and, like a client without any to give, refuses
 * the server's roots/list at once: the server then serves with its own roots, as when a
 * client does not answer within ROOTS_TIMEOUT_MS, without waiting that long on each call.
 */
const refuseRoots = () => ({ error: { code: -32601, message: 'this client serves no roots' } });

function start(binary: keyof typeof BINARIES, flags: readonly string[]) {
  const home = tempDir('colony-handshake-');
  const server = rawServer([...BINARIES[binary], ...flags], home, {}, refuseRoots);
  servers.push(server);
  return { server, home };
}

/** The live answer: the SDK server over the registry openColony builds. */
async function liveAnswer(message: Message, toolset: Toolset, version: string): Promise<Message> {
  const colony = openColony({ dbPath: ':memory:', home: tempDir('colony-live-') });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ registry: colony.registry, toolset, version });
  await server.connect(serverSide);
  const reply = new Promise<JSONRPCMessage>((resolve) => {
    client.onmessage = resolve;
  });
  await client.start();
  await client.send(message as JSONRPCMessage);
  const answer = (await reply) as Message;
  await server.close();
  await colony.close();
  return answer;
}

const initParams = (protocolVersion: string) => ({
  protocolVersion,
  capabilities: { roots: { listChanged: true } },
  clientInfo: { name: 'handshake-test', version: '1.0.0' },
});

describe.each(Object.keys(BINARIES) as Array<keyof typeof BINARIES>)('%s', (binary) => {
  it.each(TOOLSETS)('answers the handshake of toolset %s as the live registry does', async (toolset) => {
    const db = join(tempDir(), 'colony.db');
    const { server } = start(binary, [
      '--db',
      dbFor(db),
      '--toolset',
      toolset,
      ...(toolset === 'runtime' ? ['--allow-exec'] : []),
    ]);
    for (const version of [...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01']) {
      const init = await server.request('initialize', initParams(version));
      // The instructions and version are colony's; the rest is the SDK server's answer, field for field.
      const { instructions, ...result } = init.result as Message & { serverInfo: { version: string } };
      expect(instructions).toMatch(/^colony: /);
      const request = { jsonrpc: '2.0', id: init.id, method: 'initialize', params: initParams(version) };
      const live = await liveAnswer(request, toolset, result.serverInfo.version);
      expect({ ...init, result }).toEqual(live);
    }
    // Nothing opened the store yet: initialize needs none of it.
    expect(storeOpened(db)).toBe(false);
    server.notify('notifications/initialized');
    const list = await server.request('tools/list');
    const live = mcpToolList(openColony({ dbPath: ':memory:', home: tempDir() }).registry, toolset);
    expect((list.result as { tools: unknown }).tools).toEqual(live);
    expect(await server.request('ping')).toMatchObject({ result: {} });
    // Once the handshake is done, the server warms up in idle time: the store opens before any call.
    await until(() => storeOpened(db));

    const call = await server.request('tools/call', { name: 'search', arguments: { query: 'nothing yet' } });
    const served = (live as Array<{ name: string }>).some((tool) => tool.name === 'search');
    const text = (call.result as { content: Array<{ text: string }> }).content[0]!.text;
    if (served) expect(call.result).toEqual({ content: [{ type: 'text', text: '[]' }] });
    else expect(JSON.parse(text)).toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(storeOpened(db)).toBe(true);
    const again = await server.request('tools/list');
    expect((again.result as { tools: unknown }).tools).toEqual(live);
  });

  it('answers tool calls with a coded error (STORE_UNREACHABLE on PostgreSQL) while the store cannot open, and keeps serving', async () => {
    const { server } = start(binary, ['--db', UNOPENABLE.db]);
    await server.request('initialize', initParams(SUPPORTED_PROTOCOL_VERSIONS[0]!));
    for (const _ of [1, 2]) {
      const call = await server.request('tools/call', { name: 'search', arguments: { query: 'anything' } });
      const result = call.result as { isError: boolean; content: Array<{ text: string }> };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({
        code: UNOPENABLE.code,
        error: expect.stringMatching(/^cannot open colony: .*ENOENT/),
        tool: 'search',
      });
    }
    expect(await server.request('ping')).toMatchObject({ result: {} });
    expect(server.stderr()).toMatch(/colony: cannot open colony: /);
  });
});
