/**
 * @swarm/tools/mcp: the tool registry served over MCP. This file is the whole public
 * API of the MCP adapter (a separate entry, so library users never load the SDK).
 */
import type { HttpHandle, HttpOptions } from './_http';

export type { McpHandshake } from './_handshake';
export {
  createMcpServer,
  type McpServerOptions,
  mcpHandshake,
  mcpToolList,
  type ToolSource,
  wireAnnotations,
} from './_server';
export { type StdioHandle, type StdioOptions, serveStdio } from './_stdio';
export type { HttpHandle, HttpOptions };

/**
 * Serves Streamable HTTP on 127.0.0.1. The HTTP stack is loaded only here, so stdio
 * servers (every IDE session) never pay for it at start-up.
 */
export async function serveHttp(options: HttpOptions): Promise<HttpHandle> {
  const { serveHttp: serve } = await import('./_http');
  return serve(options);
}
