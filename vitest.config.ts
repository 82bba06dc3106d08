import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { findPgBin } from './test/support/pg-cluster.mjs';

const project = (name: string, root: string) => ({
  extends: true as const,
  test: { name, root, include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});

/**
 * The contract matrix's PostgreSQL leg: these server-level suites run again with every
 * store on a real PostgreSQL (COLONY_TEST_DB=postgres; apps/mcp-server/test/_backend.ts).
 * Without server binaries it is left out, except under CI=true, where it must run.
 */
const PG_CONTRACT = [
  'postgres-store',
  'plan-claim-race',
  'processes',
  'stdio-contract',
  'toolsets',
  'unknown-sessions',
  'swarm-contract',
  'confinement',
  'fast-path',
  'http',
  'protocol-2026',
  'spec-vocabulary',
  'swarm',
  'swarm-queue-processes',
  'runtime-background',
  'runtime-exec',
  'runtime-idempotency',
  'runtime-pool',
  'runtime-proofs',
  'runtime-secrets',
  'runtime-swarm',
  'warm-up',
  'handshake',
  'claims',
  'messages',
  'plans',
  'handoff-race',
  'lanes',
  'ready',
  'ready-races',
  'attention',
  'rescue',
];
const pgContract = {
  extends: true as const,
  test: {
    name: 'mcp-server-pg',
    root: 'apps/mcp-server',
    include: PG_CONTRACT.map((f) => `test/${f}.test.ts`),
    env: { COLONY_TEST_DB: 'postgres' },
    globalSetup: ['test/_pg-global.ts'],
  },
};
// COLONY_TEST_PG_MATRIX=0 leaves it out (scripts/test-lts.mjs: it runs on Node 20 only).
const withPg = process.env.COLONY_TEST_PG_MATRIX !== '0' && (findPgBin() !== undefined || process.env.CI === 'true');

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
      ...(withPg ? [pgContract] : []),
    ],
  },
});
