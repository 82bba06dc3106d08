/**
 * Codex: the MCP server in `$CODEX_HOME/config.toml` (`[mcp_servers.colony]`, default
 * `~/.codex`), the hooks in `$CODEX_HOME/hooks.json`. User scope only: colony does not
 * write Codex's project-level config.
 */
import { join } from 'node:path';
import type { IdeSpec } from '../_ide-spec';

export const codex: IdeSpec = {
  id: 'codex',
  scopes: ['user'],
  locate({ home, env }) {
    const codexHome = env.CODEX_HOME?.trim() ? env.CODEX_HOME : join(home, '.codex');
    return {
      mcp: { kind: 'toml', path: join(codexHome, 'config.toml') },
      // Codex edits files only through apply_patch.
      hooks: { path: join(codexHome, 'hooks.json'), editMatcher: 'apply_patch' },
    };
  },
};
