#!/usr/bin/env node
// `colony-mcp [flags]`: the MCP server, exactly `colony mcp [flags]` (the installed
// package's second bin; in the checkout, apps/mcp-server builds the same server).
process.argv.splice(2, 0, 'mcp');
await import('../dist/cli.js');
