/**
 * Real PostgreSQL for the test suites: the throwaway cluster of test/support/pg-cluster.mjs
 * (shared with `pnpm bench`; unix socket only, fsync off), `describePg` (skipped with a
 * message when there are no server binaries, except under CI=true, where they fail) and
 * `psql` (another OS process, another session).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe } from 'vitest';
import { findPgBin, startCluster as startPgCluster } from '../../../test/support/pg-cluster.mjs';

export const PG_BIN = findPgBin();
const MUST_RUN = process.env.CI === 'true';

/** `describe` for suites on a real server: skipped with a message only outside CI. */
export function describePg(name: string, suite: () => void): void {
  if (!PG_BIN && !MUST_RUN) {
    console.warn(
      `[${name}] skipped: no PostgreSQL server binaries (run scripts/install-system-packages.sh or set PG_BIN)`,
    );
  }
  describe.skipIf(!PG_BIN && !MUST_RUN)(name, suite);
}

/** Runs `sql` in a psql process of its own (another OS process, another session); throws on any error. */
export function psql(url: string, sql: string): void {
  const out = spawnSync(join(PG_BIN as string, 'psql'), [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
    timeout: 15_000,
  });
  if (out.status !== 0 || out.stderr) throw new Error(`psql failed (${out.status}): ${out.stderr || out.error}`);
}

export interface PgCluster {
  readonly dir: string;
  /** A new empty database; its URL. */
  database(): Promise<string>;
  stop(): void;
}

export async function startCluster(): Promise<PgCluster> {
  return startPgCluster();
}
