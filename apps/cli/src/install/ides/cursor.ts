/**
 * Cursor: `mcpServers` in `~/.cursor/mcp.json` (user) or `<project>/.cursor/mcp.json`
 * (project), a stdio server as `{ command, args, env }` (cursor.com/docs/mcp). No
 * hooks: colony's hook handler reads Claude Code's and Codex's payloads only.
 */
import { join } from 'node:path';
import { commandAndArgs, type IdeSpec } from '../_ide-spec';

export const cursor: IdeSpec = {
  id: 'cursor',
  scopes: ['user', 'project'],
  locate({ scope, home, projectRoot }) {
    return {
      mcp: {
        kind: 'json',
        path: join(scope === 'user' ? home : projectRoot, '.cursor', 'mcp.json'),
        key: 'mcpServers',
        envKey: 'env',
        fields: (command, args) => ({ command, args: [...args] }),
        argv: commandAndArgs,
      },
    };
  },
};
