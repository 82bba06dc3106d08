/**
 * Claude Code: the MCP server at user scope in `~/.claude.json` (`mcpServers`), at
 * project scope in `<project>/.mcp.json`; the hooks in `~/.claude/settings.json` or
 * `<project>/.claude/settings.json` (`hooks`).
 */
import { join } from 'node:path';
import { commandAndArgs, type IdeSpec } from '../_ide-spec';

export const claudeCode: IdeSpec = {
  id: 'claude-code',
  scopes: ['user', 'project'],
  locate({ scope, home, projectRoot }) {
    const base = scope === 'user' ? home : projectRoot;
    return {
      mcp: {
        kind: 'json',
        path: scope === 'user' ? join(home, '.claude.json') : join(projectRoot, '.mcp.json'),
        key: 'mcpServers',
        envKey: 'env',
        fields: (command, args) => ({ type: 'stdio', command, args: [...args] }),
        argv: commandAndArgs,
      },
      hooks: { path: join(base, '.claude', 'settings.json'), editMatcher: 'Edit|MultiEdit|Write|NotebookEdit' },
    };
  },
};
