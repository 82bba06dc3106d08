/**
 * Gemini CLI: `mcpServers` in `~/.gemini/settings.json` (user) or
 * `<project>/.gemini/settings.json` (project), a stdio server as `{ command, args,
 * env }` (geminicli.com/docs/tools/mcp-server). No hooks (see cursor.ts).
 */
import { join } from 'node:path';
import { commandAndArgs, type IdeSpec } from '../_ide-spec';

export const gemini: IdeSpec = {
  id: 'gemini',
  scopes: ['user', 'project'],
  locate({ scope, home, projectRoot }) {
    return {
      mcp: {
        kind: 'json',
        path: join(scope === 'user' ? home : projectRoot, '.gemini', 'settings.json'),
        key: 'mcpServers',
        envKey: 'env',
        fields: (command, args) => ({ command, args: [...args] }),
        argv: commandAndArgs,
      },
    };
  },
};
