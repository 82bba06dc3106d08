import { availableParallelism } from 'node:os';
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
    // Most test time is waiting (child processes, git, servers, timers), so two workers
    // on a 2-core CI machine finish the Node 20 suite in ~550 s instead of ~645 s.
    // Vitest's default would be one (cores - 1).
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
