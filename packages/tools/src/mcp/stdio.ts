/**
 * @swarm/tools/mcp/stdio: MCP on stdin/stdout, answering the handshake from build-time
 * data and loading the SDK server on first use. A separate entry with no runtime
 * imports, so a server process pays for nothing at start-up. This file is the whole
 * public API of the entry.
 */

// The toolset names, for validating serving flags without loading the catalog.
export { TOOLSETS, type Toolset } from '../toolsets';
export type { McpHandshake, ServerIdentity } from './_handshake';
export type { McpServerOptions, ToolSource } from './_server';
export { type StdioHandle, type StdioOptions, serveStdio } from './_stdio';
