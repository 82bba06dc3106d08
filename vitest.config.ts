import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { findPgBin } from './test/support/pg-cluster.mjs';

/**
 * One temporary folder for the whole run: every test's mkdtemp, and every process a test
 * starts (they inherit TMPDIR), lands in it, and it is removed when vitest exits, whatever
 * a test left behind. Made once: a process that already has one (a worker) keeps it.
 * Other users may pass through it (not list it): a root run's PostgreSQL clusters run as
 * `postgres` in folders of their own inside it (test/support/pg-cluster.mjs).
 */
if (!process.env.COLONY_TEST_TMP) {
  const runTmp = mkdtempSync(join(tmpdir(), 'colony-test-'));
  chmodSync(runTmp, 0o711);
  process.env.COLONY_TEST_TMP = runTmp;
  process.env.TMPDIR = runTmp;
  process.on('exit', () => rmSync(runTmp, { recursive: true, force: true }));
}

const project = (name: string, root: string) => ({
  extends: true as const,
  test: { name, root, include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});

/**
 * The contract matrix's PostgreSQL leg: every server-level suite runs again with every
 * store on a real PostgreSQL (COLONY_TEST_DB=postgres; apps/mcp-server/test/_backend.ts),
 * but these, which are about something no PostgreSQL store has or which never touch a
 * store. Without server binaries the leg is left out, except under CI=true, where it must run.
 */
const SQLITE_ONLY = [
  'store-states', // the SQLite file's own states: read-only, corrupt, from a newer colony
  'idle-checkpoint', // SQLite's WAL checkpoint when idle
  'idle-tokenizer', // the token-counting child's lifetime (opens a SQLite file to seed)
  'startup-budget', // seeds a SQLite file through the bench's startup helper
  'http-exhaustion', // file descriptors and sockets of the HTTP front, no store
  'conformance', // the MCP conformance suite: the protocol only
];

const pgContract = {
  extends: true as const,
  test: {
    name: 'mcp-server-pg',
    root: 'apps/mcp-server',
    include: ['test/**/*.test.ts'],
    exclude: SQLITE_ONLY.map((f) => `test/${f}.test.ts`),
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
