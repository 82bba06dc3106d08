/**
 * @module mcp/manager
 * The project's MCP servers for one session (seed 003 McpManager): all started at once,
 * each bounded by its startup timeout; a server that fails (a bad command, an unset
 * `${VAR}`, no answer) is a warning and the others carry on. Their tools become agent
 * tools named `mcp__<server>__<tool>`, routed to the right client by one executor, so
 * a permission or hook wrapper around executors applies to them as to any tool.
 * `close()` ends every connection (stdio children included).
 */
import type { ToolSchema } from '@swarm/providers';
import type { ToolExecutor } from '../loop/tool-caller.js';
import type { AgentTools } from '../tools/agent-tools.js';
import { DEFAULT_MCP_STARTUP_TIMEOUT_SECS, type McpServersConfig } from './config.js';
import { connectMcpServer, type McpConnection } from './connect.js';
import { expandValues } from './expand-env.js';
import { isValidToolName, prefixedName } from './mcp-tools.js';

export interface McpServerStatus {
  readonly name: string;
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly state: 'connected' | 'failed';
  /** Why it failed, or why its tool list is empty; null when all is well. */
  readonly reason: string | null;
  readonly tools: readonly { readonly name: string; readonly tool: string; readonly description: string | null }[];
  /** A connected stdio server's process id (null otherwise). */
  readonly pid: number | null;
}

export interface McpManager extends AgentTools {
  readonly servers: readonly McpServerStatus[];
  /** One line per failed server or skipped tool. */
  readonly warnings: readonly string[];
  close(): Promise<void>;
}

export interface StartMcpOptions {
  /** Where `${VAR}` comes from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where stdio servers start (the project root). */
  readonly cwd: string;
  /** Overrides every server's startup timeout (tests). */
  readonly timeout_ms?: number;
}

export async function startMcpServers(
  configs: McpServersConfig | null | undefined,
  options: StartMcpOptions,
): Promise<McpManager> {
  const env = options.env ?? process.env;
  const warnings: string[] = [];
  const entries = Object.entries(configs ?? {});
  const outcomes = await Promise.all(
    entries.map(async ([name, config]) => {
      const expanded = { env: expandValues(config.env, env), headers: expandValues(headersOf(config.transport), env) };
      const missing = [...new Set([...expanded.env.missing, ...expanded.headers.missing])];
      if (missing.length) return { error: `environment variable ${missing.map((m) => `\${${m}}`).join(', ')} not set` };
      const timeout_ms = options.timeout_ms ?? (config.startup_timeout_secs ?? DEFAULT_MCP_STARTUP_TIMEOUT_SECS) * 1000;
      const connectOptions = {
        env: expanded.env.values,
        headers: expanded.headers.values,
        cwd: options.cwd,
        timeout_ms,
      };
      return connectMcpServer(name, config, connectOptions).then(
        (connection) => ({ connection }),
        (error: Error) => ({ error: error.message }),
      );
    }),
  );
  const servers: McpServerStatus[] = [];
  const schemas: ToolSchema[] = [];
  const routes = new Map<string, { connection: McpConnection; tool: string }>();
  entries.forEach(([name, config], i) => {
    const outcome = outcomes[i]!;
    const transport = config.transport.type;
    if ('error' in outcome) {
      warnings.push(`MCP server ${name} failed to start: ${outcome.error}`);
      servers.push({ name, transport, state: 'failed', reason: outcome.error, tools: [], pid: null });
      return;
    }
    const { connection } = outcome;
    if (connection.list_error) warnings.push(`MCP server ${name}: tools/list failed: ${connection.list_error}`);
    const tools: McpServerStatus['tools'][number][] = [];
    for (const t of connection.tools) {
      const prefixed = prefixedName(name, t.name);
      if (!isValidToolName(prefixed)) {
        warnings.push(`MCP server ${name}: tool ${JSON.stringify(t.name)} skipped (its name cannot be a tool name)`);
        continue;
      }
      routes.set(prefixed, { connection, tool: t.name });
      schemas.push({ name: prefixed, description: t.description ?? '', input_schema: t.input_schema });
      tools.push({ name: prefixed, tool: t.name, description: t.description });
    }
    servers.push({ name, transport, state: 'connected', reason: connection.list_error, tools, pid: connection.pid });
  });
  const connections = outcomes.flatMap((o) => ('connection' in o ? [o.connection] : []));
  return {
    servers,
    warnings,
    schemas,
    executor: mcpExecutor(routes),
    close: async () => {
      await Promise.all(connections.map((c) => c.close()));
    },
  };
}

function headersOf(transport: McpServersConfig[string]['transport']): Record<string, string> | undefined {
  return transport.type === 'stdio' ? undefined : transport.headers;
}

function mcpExecutor(routes: ReadonlyMap<string, { connection: McpConnection; tool: string }>): ToolExecutor {
  return {
    async execute(call, { signal }) {
      const route = routes.get(call.name);
      if (!route) return { content: `unknown MCP tool ${call.name}`, is_error: true };
      return route.connection.callTool(route.tool, call.input, signal);
    },
  };
}
