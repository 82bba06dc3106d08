/** The MCP handshake computed at build time (tsup.shared.ts, mcpHandshakePlugin). */
declare module 'virtual:colony-mcp-handshake' {
  const handshake: import('@swarm/tools/mcp/stdio').McpHandshake;
  export default handshake;
}
