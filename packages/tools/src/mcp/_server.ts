/**
 * @module mcp/server
 * One MCP server over a registry, using the SDK's low-level Server so the tool list
 * is exactly the registry's compact JSON schemas (no re-derivation, no extra fields).
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  type Tool as McpTool,
  RootsListChangedNotificationSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { TOOLSETS, type Tool, type ToolAnnotations, type Toolset } from '../define-tool';
import { inputJsonSchema } from '../json-schema';
import type { ToolCallOutcome } from '../registry';
import type { CallTool, FastCallParams } from './_fast-call';
import type { McpHandshake } from './_handshake';

/** What serving needs of a registry: its tools and a way to call them. */
export interface ToolSource {
  list(toolset?: Toolset): readonly Tool<never>[];
  call(name: string, args: unknown, options?: { toolset?: Toolset }): Promise<ToolCallOutcome>;
  /**
   * Prepares for the first call in idle time (a stdio server tells it once the handshake
   * is done). Must not throw or report: a failure is met again, and reported, by `call`.
   */
  warm?(): void;
}

export interface McpServerOptions {
  readonly registry: ToolSource;
  readonly toolset: Toolset;
  readonly name?: string;
  readonly version: string;
  /** Short server instructions shown to the model at initialize. */
  readonly instructions?: string;
  /** The tools/list answer when known ahead (`mcpHandshake`); default: derived from the registry. */
  readonly tools?: readonly McpTool[];
  /**
   * Told the roots the client declares (the protocol's `roots/list`, file URIs), or
   * undefined when it declares none or does not answer in time. Asked before the first
   * tool call and again after `notifications/roots/list_changed`. One client per server:
   * stdio only (an HTTP server's sessions would share one answer).
   */
  readonly onClientRoots?: (roots: string[] | undefined) => void | Promise<void>;
}

/** How long a tool call waits for the client's roots/list answer before serving without it. */
export const ROOTS_TIMEOUT_MS = 2_000;

const lists = new WeakMap<ToolSource, Map<Toolset, McpTool[]>>();

/** The tools/list payload for a toolset, built once per registry on first request. */
export function mcpToolList(registry: ToolSource, toolset: Toolset): McpTool[] {
  let byToolset = lists.get(registry);
  if (!byToolset) {
    byToolset = new Map();
    lists.set(registry, byToolset);
  }
  let list = byToolset.get(toolset);
  if (!list) {
    list = buildToolList(registry, toolset);
    byToolset.set(toolset, list);
  }
  return list;
}

function buildToolList(registry: ToolSource, toolset: Toolset): McpTool[] {
  return registry.list(toolset).map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool) as McpTool['inputSchema'],
    annotations: wireAnnotations(tool.annotations),
  }));
}

/** The spec's default for each hint: a hint equal to it is left out of tools/list. */
const HINT_DEFAULTS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/**
 * The annotations as tools/list carries them: every hint the spec would not assume by
 * default, and for a read-only tool not the two the spec says mean nothing there
 * (destructiveHint, idempotentHint). tools/list is read on every turn, so a hint that
 * says what a client assumes anyway is not sent.
 */
export function wireAnnotations(annotations: ToolAnnotations): Partial<ToolAnnotations> {
  const wire: Partial<Record<keyof ToolAnnotations, boolean>> = {};
  for (const key of Object.keys(HINT_DEFAULTS) as (keyof ToolAnnotations)[]) {
    if (annotations.readOnlyHint && (key === 'destructiveHint' || key === 'idempotentHint')) continue;
    if (annotations[key] !== HINT_DEFAULTS[key]) wire[key] = annotations[key];
  }
  return wire;
}

// The SDK validates elicitation answers with Ajv by default; colony never elicits, so it
// gets a validator that refuses instead of paying Ajv's start-up cost in every server.
const noElicitation = {
  getValidator: () => () => ({
    valid: false as const,
    data: undefined,
    errorMessage: 'colony does not request elicitation',
  }),
};

/**
 * Parses a sample tools/call request and result, as the SDK server does on every call:
 * zod builds a schema's parser on its first use (~1-6 ms for these), so a server that
 * warms up before its first call (`serveStdio`) does it then instead of on the call.
 */
export function warmCallSchemas(): void {
  CallToolRequestSchema.safeParse({ method: 'tools/call', params: { name: 'warm', arguments: {} } });
  CallToolResultSchema.safeParse({ content: [{ type: 'text', text: '' }] });
}

export function createMcpServer(options: McpServerOptions): Server {
  return createServerWithCall(options).server;
}

/**
 * An MCP server over a registry, and the function its tools/call handler calls (the
 * client's roots once, then the registry): the stdio front's fast path calls the same.
 */
export function createServerWithCall(options: McpServerOptions): { server: Server; callTool: CallTool } {
  const { registry, toolset } = options;
  const server = new Server(
    { name: options.name ?? 'colony', version: options.version },
    {
      capabilities: { tools: {} },
      jsonSchemaValidator: noElicitation,
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );
  // Converting schemas costs start-up time; do it when a client first asks.
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (options.tools ?? mcpToolList(registry, toolset)) as McpTool[],
  }));
  const askRoots = options.onClientRoots ? clientRoots(server, options.onClientRoots) : undefined;
  const callTool = async (params: FastCallParams) => {
    await askRoots?.();
    const outcome = await registry.call(params.name, params.arguments ?? {}, { toolset });
    return {
      content: [{ type: 'text' as const, text: outcome.text }],
      ...(outcome.ok ? {} : { isError: true }),
    };
  };
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params));
  return { server, callTool };
}

/**
 * Asks the client for its roots once (again after it says they changed), when it declares
 * the roots capability; a client that fails or is slow to answer leaves the server's own
 * roots in force.
 */
function clientRoots(server: Server, tell: (roots: string[] | undefined) => void | Promise<void>): () => Promise<void> {
  let asked: Promise<void> | undefined;
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    asked = undefined;
  });
  const ask = async () => {
    if (!server.getClientCapabilities()?.roots) return;
    let roots: string[] | undefined;
    try {
      const answer = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      roots = answer.roots.map((root) => root.uri).filter((uri) => uri.startsWith('file://'));
    } catch {
      roots = undefined;
    }
    await tell(roots);
  };
  return () => {
    asked ??= ask();
    return asked;
  };
}

/**
 * The handshake answers of a server over this registry, for every toolset: computed at
 * build time and served by `serveStdio` before the SDK loads. Everything in it comes
 * from this SDK and this registry (the capabilities from a real initialize exchange),
 * so a new tool or SDK version changes it by itself.
 */
export async function mcpHandshake(registry: ToolSource): Promise<McpHandshake> {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ registry, toolset: 'all', version: '0.0.0' });
  await server.connect(serverSide);
  const answer = new Promise<JSONRPCMessage>((resolve) => {
    client.onmessage = resolve;
  });
  await client.start();
  await client.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'build', version: '0' } },
  });
  const reply = (await answer) as { result?: { capabilities?: Record<string, unknown> } };
  await server.close();
  if (!reply.result?.capabilities) throw new Error(`initialize answered ${JSON.stringify(reply)}`);
  return {
    protocol: { latest: LATEST_PROTOCOL_VERSION, supported: [...SUPPORTED_PROTOCOL_VERSIONS] },
    capabilities: reply.result.capabilities,
    tools: Object.fromEntries(TOOLSETS.map((toolset) => [toolset, JSON.stringify(mcpToolList(registry, toolset))])),
  };
}
