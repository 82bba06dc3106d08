/**
 * A throwaway PostgreSQL cluster per test file: initdb into a temp dir (trust auth),
 * `pg_ctl start` listening only on a unix socket in that dir, one fresh database per
 * `database()` call; `stop()` stops it (immediate mode) and removes the dir. initdb
 * refuses root, so as root the server runs as the `postgres` user Debian's package
 * creates (or `nobody`) through `runuser`. The binaries are Debian's (installed by
 * scripts/install-system-packages.sh), or `$PG_BIN` (`none`: as if there were none).
 * Without them the suites skip with a message, except under CI=true, where they fail.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';

function findBin(): string | undefined {
  if (process.env.PG_BIN === 'none') return undefined;
  const candidates = [process.env.PG_BIN];
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, 'initdb')));
}

export const PG_BIN = findBin();
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

/** The unprivileged user the server runs as when the tests run as root. */
function serverUser(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return spawnSync('id', ['-u', 'postgres']).status === 0 ? 'postgres' : 'nobody';
}

function run(user: string | undefined, bin: string, args: string[], timeoutMs: number): string {
  const [cmd, argv] = user ? ['runuser', ['-u', user, '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { timeout: timeoutMs, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startCluster(): Promise<PgCluster> {
  if (!PG_BIN) throw new Error('no PostgreSQL server binaries: run scripts/install-system-packages.sh or set PG_BIN');
  const bin = (name: string) => join(PG_BIN as string, name);
  const dir = mkdtempSync(join(tmpdir(), 'colony-pg-'));
  const user = serverUser();
  if (user) {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  const ctl = (args: string[], timeoutMs = 30_000) => run(user, bin('pg_ctl'), ['-D', data, ...args], timeoutMs);
  run(
    user,
    bin('initdb'),
    ['-D', data, '-U', 'colony', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
    60_000,
  );
  const options = `-k ${dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
  ctl(['-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start'], 40_000);
  let stopped = false;
  let n = 0;
  const url = (db: string) => `postgresql://colony@localhost/${db}?host=${encodeURIComponent(dir)}`;
  return {
    dir,
    async database() {
      const name = `colony_test_${process.pid}_${++n}`;
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        ctl(['-m', 'immediate', '-w', '-t', '20', 'stop'], 30_000);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
