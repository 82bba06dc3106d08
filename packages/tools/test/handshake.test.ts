/**
 * The MCP handshake served before the SDK loads: every answer it gives is the answer
 * the SDK server gives to the same message, it answers only messages the SDK's schemas
 * accept, and everything else is left to the SDK.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCRequestSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLONY_TOOLS, TOOLSETS, ToolRegistry, type Toolset } from '../src/index';
import {
  answerHandshake,
  answerLine,
  type HandshakeAnswer,
  type McpHandshake,
  type ServerIdentity,
} from '../src/mcp/_handshake';
import { createMcpServer, mcpHandshake, mcpToolList } from '../src/mcp/index';

const registry = new ToolRegistry(COLONY_TOOLS, {}, { now: () => 0 });
const identity: ServerIdentity = { name: 'colony', version: '1.2.3', instructions: 'Use colony.' };

/** What the real SDK server answers to one message (the `result` or `error` of its reply). */
async function sdkAnswer(message: Record<string, unknown>, toolset: Toolset = 'all', id = identity) {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ registry, toolset, ...id });
  await server.connect(serverSide);
  const reply = new Promise<JSONRPCMessage>((resolve) => {
    client.onmessage = resolve;
  });
  await client.start();
  await client.send(message as JSONRPCMessage);
  const answer = (await Promise.race([reply, new Promise((resolve) => setTimeout(resolve, 200, 'no answer'))])) as
    | Record<string, unknown>
    | string;
  await server.close();
  return answer;
}

const initialize = (params: Record<string, unknown>, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params,
});
const clientInfo = { name: 'claude-code', version: '2.0.1' };

let handshake: McpHandshake;

/** The line the stdio front writes for an answer: compared byte for byte with the SDK's. */
function ourLine(answer: HandshakeAnswer): string {
  if (answer?.kind !== 'result') throw new Error(`not answered: ${JSON.stringify(answer)}`);
  return answerLine(answer.id, answer.resultJson);
}
const sdkLine = (answer: unknown) => `${JSON.stringify(answer)}\n`;

describe('mcpHandshake', () => {
  it('holds the SDK protocol versions, its capabilities and the tools/list of every toolset', async () => {
    handshake = await mcpHandshake(registry);
    expect(handshake.protocol).toEqual({ latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS });
    expect(handshake.capabilities).toEqual({ tools: {} });
    expect(JSON.parse(handshake.tools.all ?? '')).toEqual(mcpToolList(registry, 'all'));
    expect(JSON.parse(handshake.tools.core ?? '')).toEqual(mcpToolList(registry, 'core'));
    expect(handshake.tools.core?.length).toBeLessThan(handshake.tools.all?.length ?? 0);
    expect(JSON.parse(JSON.stringify(handshake))).toEqual(handshake);
  });
});

describe('answerHandshake', () => {
  it.each([...SUPPORTED_PROTOCOL_VERSIONS.map((v) => [v]), ['1999-01-01'], ['not a version']])(
    'answers initialize for protocol %s exactly as the SDK server',
    async (version) => {
      handshake ??= await mcpHandshake(registry);
      const message = initialize({
        protocolVersion: version,
        capabilities: { roots: { listChanged: true } },
        clientInfo,
      });
      const ours = answerHandshake(message, handshake, identity, 'all');
      expect(ours).toMatchObject({ kind: 'result', id: 1 });
      expect(ourLine(ours)).toBe(sdkLine(await sdkAnswer(message)));
    },
  );

  it('leaves out instructions when the server has none, as the SDK does', async () => {
    handshake ??= await mcpHandshake(registry);
    const bare = { name: 'colony', version: '1.2.3' };
    const message = initialize({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo }, 'init-1');
    const ours = answerHandshake(message, handshake, bare, 'core');
    expect(ourLine(ours)).toBe(sdkLine(await sdkAnswer(message, 'core', bare)));
  });

  it.each(TOOLSETS)('answers tools/list and ping for toolset %s exactly as the SDK server', async (toolset) => {
    handshake ??= await mcpHandshake(registry);
    for (const message of [
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
      { jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { cursor: 'abc' } },
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
    ]) {
      const ours = answerHandshake(message, handshake, identity, toolset);
      expect(ourLine(ours)).toBe(sdkLine(await sdkAnswer(message, toolset)));
    }
  });

  it('recognises notifications/initialized and nothing else without an id', async () => {
    handshake ??= await mcpHandshake(registry);
    const answer = (m: Record<string, unknown>) => answerHandshake(m, handshake, identity, 'all');
    expect(answer({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ kind: 'initialized' });
    expect(answer({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toBeUndefined();
    expect(answer({ jsonrpc: '2.0', method: 'notifications/initialized', params: { _meta: {} } })).toBeUndefined();
  });

  it('leaves every other message to the SDK', async () => {
    handshake ??= await mcpHandshake(registry);
    const plain = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo };
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: {} } },
      { jsonrpc: '2.0', id: 1, method: 'resources/list' },
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 1 } } },
      { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 5 } },
      initialize({ ...plain, protocolVersion: 20250618 }),
      initialize({ ...plain, clientInfo: { name: 'x' } }),
      initialize({ ...plain, clientInfo: { ...clientInfo, icons: [] } }),
      initialize({ ...plain, capabilities: { roots: { listChanged: 'yes' } } }),
      initialize({ ...plain, capabilities: { tasks: { requests: {} } } }),
      initialize({ ...plain, capabilities: { sampling: { tools: true } } }),
      initialize({ ...plain, _meta: {} }),
      { jsonrpc: '2.0', id: 1, result: {} },
      [initialize(plain)],
      'initialize',
    ]) {
      expect(answerHandshake(message, handshake, identity, 'all')).toBeUndefined();
    }
  });

  it('answers only initialize requests the SDK accepts, and then exactly as the SDK server', async () => {
    handshake ??= await mcpHandshake(registry);
    const anyJson = fc.oneof(
      fc.constant(undefined),
      fc.boolean(),
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.object(),
    );
    // Mostly the shapes real clients send, mixed with wrong types in every place the SDK checks.
    const capability = fc.oneof(
      { arbitrary: fc.constant({}), weight: 4 },
      fc.record({ listChanged: fc.oneof(fc.boolean(), fc.string()) }, { requiredKeys: [] }),
      fc.record(
        { form: fc.oneof(fc.object(), fc.record({ applyDefaults: anyJson })), url: anyJson },
        { requiredKeys: [] },
      ),
      fc.record({ context: anyJson, tools: anyJson }, { requiredKeys: [] }),
      fc.dictionary(fc.string(), fc.oneof(fc.object(), anyJson)),
      anyJson,
    );
    const capabilities = fc.oneof(
      {
        arbitrary: fc.dictionary(
          fc.constantFrom('roots', 'sampling', 'elicitation', 'experimental', 'extensions', 'tasks', 'other'),
          capability,
          { maxKeys: 3 },
        ),
        weight: 8,
      },
      anyJson,
    );
    const info = fc.oneof(
      {
        arbitrary: fc.record(
          { name: fc.string(), version: fc.string(), title: fc.string() },
          { requiredKeys: ['name', 'version'] },
        ),
        weight: 6,
      },
      fc.record(
        { name: anyJson, version: anyJson, title: anyJson, websiteUrl: fc.string(), icons: fc.array(fc.object()) },
        { requiredKeys: [] },
      ),
      anyJson,
    );
    const params = fc.record(
      {
        protocolVersion: fc.oneof(
          { arbitrary: fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS), weight: 4 },
          { arbitrary: fc.string(), weight: 2 },
          anyJson,
        ),
        capabilities,
        clientInfo: info,
      },
      { requiredKeys: [] },
    );
    const id = fc.oneof(
      { arbitrary: fc.string(), weight: 4 },
      { arbitrary: fc.integer(), weight: 4 },
      fc.double(),
      fc.constant(null),
    );
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(params, id, async (p, requestId) => {
        const message = JSON.parse(JSON.stringify(initialize(p, requestId as number)));
        const ours = answerHandshake(message, handshake, identity, 'all');
        if (!ours) return;
        answered++;
        expect(JSONRPCRequestSchema.safeParse(message).success).toBe(true);
        expect(InitializeRequestSchema.safeParse(message).success).toBe(true);
        expect(ourLine(ours)).toBe(sdkLine(await sdkAnswer(message)));
      }),
      { numRuns: 300 },
    );
    expect(answered).toBeGreaterThan(30);
  });
});
