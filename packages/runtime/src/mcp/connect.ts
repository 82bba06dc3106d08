/**
 * @module mcp/connect
 * One MCP server through the SDK's `Client` (seed 003 McpClient): connect (the SDK
 * negotiates the protocol version; clientInfo is `colony` and this package's version),
 * list its tools (page by page), call them, close. Connecting and listing are bounded
 * by the startup timeout: past it the transport is closed (a stdio child is ended) and
 * the server fails. A `tools/list` that fails leaves the server connected with no tools.
 * A call that fails at the transport is tried once more; a protocol error is not.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import pkg from '../../package.json' with { type: 'json' };
import type { ToolResult } from '../loop/tool-caller.js';
import { buildTransport } from './_transport.js';
import type { McpServerConfig } from './config.js';
import { resultText } from './mcp-tools.js';

export interface McpToolDefinition {
  readonly name: string;
  readonly description: string | null;
  readonly input_schema: Record<string, unknown>;
}

export interface McpConnection {
  readonly name: string;
  readonly tools: readonly McpToolDefinition[];
  /** Why `tools/list` failed (the server stays connected), else null. */
  readonly list_error: string | null;
  readonly pid: number | null;
  callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly env: Record<string, string>;
  readonly headers: Record<string, string>;
  /** Where a stdio server starts (its `cwd` is relative to it). */
  readonly cwd: string;
  readonly timeout_ms: number;
}

export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<McpConnection> {
  const { Client: ClientClass } = await import('@modelcontextprotocol/sdk/client/index.js');
  const built = await buildTransport(config.transport, options, options.cwd);
  const client = new ClientClass({ name: 'colony', version: pkg.version });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${options.timeout_ms} ms`)), options.timeout_ms);
  });
  try {
    await Promise.race([client.connect(built.transport, { timeout: options.timeout_ms }), timeout]);
    const listed = await Promise.race([listTools(client), timeout]);
    return {
      name,
      ...listed,
      pid: built.pid(),
      callTool: (tool, args, signal) => callTool(client, tool, args, signal),
      close: () => client.close().catch(() => {}),
    };
  } catch (error) {
    await client.close().catch(() => {});
    await built.transport.close().catch(() => {});
    const stderr = built.stderrTail();
    const last = stderr ? `; stderr: ${stderr.split('\n').slice(-3).join(' | ')}` : '';
    throw new Error(`${(error as Error).message}${last}`);
  } finally {
    clearTimeout(timer);
  }
}

async function listTools(client: Client): Promise<{ tools: McpToolDefinition[]; list_error: string | null }> {
  if (!client.getServerCapabilities()?.tools) return { tools: [], list_error: null };
  const tools: McpToolDefinition[] = [];
  try {
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      for (const t of page.tools) {
        tools.push({ name: t.name, description: t.description ?? null, input_schema: t.inputSchema });
      }
      cursor = page.nextCursor;
    } while (cursor);
    return { tools, list_error: null };
  } catch (error) {
    return { tools: [], list_error: (error as Error).message };
  }
}

async function callTool(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { signal });
      return { content: resultText(result), is_error: result.isError === true };
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof McpError || signal.aborted || attempt === 2) return { content: message, is_error: true };
    }
  }
}
