/**
 * @swarm/core/serve: colony served over MCP, shared by the `colony mcp` command and the
 * standalone `colony-mcp` binary. A separate entry so library users never load the
 * MCP SDK. This file is the whole public API of the entry.
 */

export { DEFAULT_HTTP_PORT, databaseUrlOf, parseServeFlags, type ServeFlags } from './_flags';
export { leanV8Flags } from './_heap';
export { type ServeHandle, type ServeOptions, serveColony } from './_serve';
export { HTTP_TOKEN_FILE, resolveHttpToken } from './_token';
