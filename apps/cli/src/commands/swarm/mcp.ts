/** `colony swarm mcp`: the project's MCP servers (list). */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'mcp', description: "The project's MCP servers for agents (list)." },
  subCommands: {
    list: () => import('./mcp-list').then((m) => m.default),
  },
});
