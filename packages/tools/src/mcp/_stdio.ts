/**
 * @module mcp/stdio
 * Serves MCP on this process's stdin/stdout until stdin closes.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type McpServerOptions } from './_server';

export interface StdioHandle {
  /** Resolves when the client has gone (stdin ended) or close() was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(options: McpServerOptions): Promise<StdioHandle> {
  const server = createMcpServer(options);
  const transport = new StdioServerTransport();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  server.onclose = () => resolveClosed();
  process.stdin.once('end', () => {
    void server.close();
  });
  await server.connect(transport);
  return {
    closed,
    async close() {
      await server.close();
    },
  };
}
