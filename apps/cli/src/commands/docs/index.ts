/**
 * `colony docs`: reference documents generated from the code, so they cannot drift.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'docs', description: 'Generate reference documents from the code (docs mcp).' },
  subCommands: {
    mcp: () => import('./mcp').then((m) => m.default),
  },
});
