/**
 * @module runtime/mcp
 * `colony swarm mcp list`: connects the project's configured MCP servers as a session
 * would (same settings, same timeouts, stdio servers started in the project root),
 * reports each one's state and tools, and closes them all again.
 */
import { loadRuntimeConfig, type McpServerStatus, startMcpServers } from '@swarm/runtime';
import { resolveHome } from '../paths.js';
import { projectRootOf } from './config.js';
import { SwarmControlError } from './control.js';

export interface McpListResult {
  readonly project_root: string;
  readonly servers: readonly Omit<McpServerStatus, 'pid'>[];
  readonly warnings: readonly string[];
}

export async function listMcpServers(options: { cwd: string; home?: string }): Promise<McpListResult> {
  const project_root = await projectRootOf(options.cwd);
  const loaded = loadRuntimeConfig({ home: resolveHome(options.home), projectRoot: project_root });
  if (!loaded.config) throw new SwarmControlError(loaded.errors.map((e) => e.message).join('\n'));
  const manager = await startMcpServers(loaded.config.raw.mcpServers, { cwd: project_root });
  try {
    return {
      project_root,
      servers: manager.servers.map(({ pid: _pid, ...server }) => server),
      warnings: [...loaded.warnings, ...manager.warnings],
    };
  } finally {
    await manager.close();
  }
}
