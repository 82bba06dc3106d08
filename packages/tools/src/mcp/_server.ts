/**
 * @module mcp/server
 * One MCP server over a registry, using the SDK's low-level Server so the tool list
 * is exactly the registry's compact JSON schemas (no re-derivation, no extra fields).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Tool, Toolset } from '../define-tool';
import { inputJsonSchema } from '../json-schema';
import type { ToolCallOutcome } from '../registry';

/** What serving needs of a registry: its tools and a way to call them. */
export interface ToolSource {
  list(toolset?: Toolset): readonly Tool<never>[];
  call(name: string, args: unknown, options?: { toolset?: Toolset }): Promise<ToolCallOutcome>;
}

export interface McpServerOptions {
  readonly registry: ToolSource;
  readonly toolset: Toolset;
  readonly name?: string;
  readonly version: string;
  /** Short server instructions shown to the model at initialize. */
  readonly instructions?: string;
}

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
    description: tool.description,
    inputSchema: inputJsonSchema(tool) as McpTool['inputSchema'],
  }));
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

export function createMcpServer(options: McpServerOptions): Server {
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
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: mcpToolList(registry, toolset) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const outcome = await registry.call(request.params.name, request.params.arguments ?? {}, { toolset });
    return {
      content: [{ type: 'text' as const, text: outcome.text }],
      ...(outcome.ok ? {} : { isError: true }),
    };
  });
  return server;
}
