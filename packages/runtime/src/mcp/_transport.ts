/**
 * @module mcp/_transport
 * The MCP SDK transport of one server's configuration, loaded on first use (so loading
 * the runtime does not load the SDK client). stdio servers get the SDK's safe default
 * environment plus the configured `env`, start in `cwd` (default the project root),
 * and have their stderr piped: its tail explains a failure.
 */
import { resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpTransportConfig } from './config.js';

export interface BuiltTransport {
  readonly transport: Transport;
  /** The stdio child's pid once started (null for HTTP). */
  pid(): number | null;
  /** The last lines the stdio child wrote to stderr. */
  stderrTail(): string;
}

export async function buildTransport(
  config: McpTransportConfig,
  expanded: { env: Record<string, string>; headers: Record<string, string> },
  cwd: string,
): Promise<BuiltTransport> {
  if (config.type === 'stdio') {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: expanded.env,
      cwd: config.cwd ? resolve(cwd, config.cwd) : cwd,
      stderr: 'pipe',
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-2000);
    });
    return { transport, pid: () => transport.pid, stderrTail: () => tail.trim() };
  }
  const requestInit = { headers: expanded.headers };
  const url = new URL(config.url);
  if (config.type === 'http') {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return {
      transport: new StreamableHTTPClientTransport(url, { requestInit }),
      pid: () => null,
      stderrTail: () => '',
    };
  }
  const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
  return { transport: new SSEClientTransport(url, { requestInit }), pid: () => null, stderrTail: () => '' };
}
