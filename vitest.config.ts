import { defineConfig } from 'vitest/config';

const project = (name: string, root: string) => ({
  extends: true as const,
  test: { name, root, include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});

export default defineConfig({
  resolve: { conditions: ['@swarm/source'] },
  ssr: { resolve: { conditions: ['@swarm/source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      project('storage', 'packages/storage'),
      project('tools', 'packages/tools'),
      project('coordination', 'packages/coordination'),
      project('worktree', 'packages/worktree'),
      project('core', 'packages/core'),
      project('mcp-server', 'apps/mcp-server'),
      project('cli', 'apps/cli'),
      project('providers', 'packages/providers'),
      project('runtime', 'packages/runtime'),
      project('repo', '.'),
    ],
  },
});
