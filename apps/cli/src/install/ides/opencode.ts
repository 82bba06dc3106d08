/**
 * OpenCode: the `mcp` map of `$XDG_CONFIG_HOME/opencode/opencode.json` (default
 * `~/.config/opencode`, user) or `<project>/opencode.json` (project); a local server
 * is `{ type: "local", command: [exe, ...args], enabled, environment }`
 * (opencode.ai/docs/mcp-servers). No hooks (see cursor.ts).
 */
import { join } from 'node:path';
import type { IdeSpec } from '../_ide-spec';

export const opencode: IdeSpec = {
  id: 'opencode',
  scopes: ['user', 'project'],
  locate({ scope, home, env, projectRoot }) {
    const config = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(home, '.config');
    return {
      mcp: {
        kind: 'json',
        path: scope === 'user' ? join(config, 'opencode', 'opencode.json') : join(projectRoot, 'opencode.json'),
        key: 'mcp',
        envKey: 'environment',
        fields: (command, args) => ({ type: 'local', command: [command, ...args], enabled: true }),
        argv: (entry) => (Array.isArray(entry.command) ? entry.command.map(String) : []),
      },
    };
  },
};
