/**
 * `colony swarm mcp list [--json]`: connects each MCP server of the project's settings
 * as a session would, and shows its state (connected, or failed with the reason) and
 * its tools as agents see them (`mcp__<server>__<tool>`). A failed server is reported,
 * not fatal (exit 0); invalid settings exit 1.
 */
import type { McpListResult } from '@swarm/core/runtime';
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { CliError, printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'list', description: "Connect the project's MCP servers and list their state and tools." },
  args: {
    json: { type: 'boolean', description: 'Print the servers as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { listMcpServers } = await import('@swarm/core/runtime');
    const { cwd, home } = controlOptions(args);
    const result = await control(() => listMcpServers({ cwd, ...(home ? { home } : {}) })).catch((error: Error) => {
      throw new CliError(error.message.split('\n').join('; '));
    });
    if (args.json) return printJson(result);
    printLines(serverLines(result));
  },
});

function serverLines(r: McpListResult): string[] {
  if (r.servers.length === 0) return [`no MCP servers configured for ${r.project_root}`];
  return r.servers.flatMap((s) => [
    s.state === 'connected'
      ? `${s.name} (${s.transport}): connected, ${s.tools.length} tools${s.reason ? ` (${s.reason})` : ''}`
      : `${s.name} (${s.transport}): failed: ${s.reason}`,
    ...s.tools.map((t) => `  ${t.name}${t.description ? `  ${t.description}` : ''}`),
  ]);
}
