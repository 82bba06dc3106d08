/**
 * @swarm/tools/mcp: the tool registry served over MCP. This file is the whole public
 * API of the MCP adapter (a separate entry, so library users never load the SDK).
 */

export { type HttpHandle, type HttpOptions, serveHttp } from './_http';
export { createMcpServer, type McpServerOptions, mcpToolList } from './_server';
export { type StdioHandle, serveStdio } from './_stdio';
