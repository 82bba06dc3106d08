/**
 * A throwaway PostgreSQL cluster, shared by the test suites (packages/storage/test/_postgres.ts)
 * and `pnpm bench` (bench/postgres.mjs): initdb into a temp dir (trust auth), `pg_ctl start`
 * listening only on a unix socket in that dir, one fresh database per `database()`;
 * `stop()` stops it (immediate mode) and removes the dir. initdb refuses root, so as root
 * the server runs as the `postgres` user Debian's package creates (or `nobody`) through
 * `runuser`. The binaries are Debian's (installed by scripts/install-system-packages.sh),
 * or `$PG_BIN` (`none`: as if there were none). Plain JavaScript, no driver: databases
 * are made with `createdb`.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directory of initdb, pg_ctl, psql and createdb, or undefined. */
export function findPgBin() {
  if (process.env.PG_BIN === 'none') return undefined;
  const candidates = [process.env.PG_BIN];
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  return candidates.find((dir) => !!dir && existsSync(join(dir, 'initdb')));
}

/** The unprivileged user the server runs as when this process is root. */
function serverUser() {
  if (process.getuid?.() !== 0) return undefined;
  return spawnSync('id', ['-u', 'postgres']).status === 0 ? 'postgres' : 'nobody';
}

function run(user, bin, args, timeoutMs) {
  const [cmd, argv] = user ? ['runuser', ['-u', user, '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { timeout: timeoutMs, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Starts a cluster. `durable: false` (tests) turns fsync, synchronous commit and full page
 * writes off; `durable: true` (the bench) keeps PostgreSQL's defaults.
 * @param {{ durable?: boolean, maxConnections?: number }} [options]
 * @returns {{ dir: string, database(): Promise<string>, stop(): void }}
 */
export function startCluster(options = {}) {
  const pgBin = findPgBin();
  if (!pgBin) throw new Error('no PostgreSQL server binaries: run scripts/install-system-packages.sh or set PG_BIN');
  const bin = (name) => join(pgBin, name);
  const dir = mkdtempSync(join(tmpdir(), 'colony-pg-'));
  const user = serverUser();
  if (user) {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  const ctl = (args, timeoutMs = 30_000) => run(user, bin('pg_ctl'), ['-D', data, ...args], timeoutMs);
  watchOver(process.pid, data, dir, bin('pg_ctl'), user);
  run(
    user,
    bin('initdb'),
    ['-D', data, '-U', 'colony', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
    60_000,
  );
  const fast = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const serverOptions = `-k ${dir} -c listen_addresses=''${fast} -c max_connections=${options.maxConnections ?? 60}`;
  ctl(['-o', serverOptions, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start'], 40_000);
  let stopped = false;
  let n = 0;
  return {
    dir,
    async database() {
      return createDatabase(dir, `colony_test_${process.pid}_${++n}`);
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

/**
 * The server outlives the process that started it (pg_ctl detaches it): a process that
 * dies without `stop()` (SIGKILL, a crash, a CI job cancelled) would leave it running.
 * A detached shell checks every second that the starter is alive and the folder there;
 * when the starter is gone it stops the server (immediate mode) and removes the folder;
 * after a normal `stop()` (folder gone) it just exits.
 */
const WATCHDOG = `while kill -0 "$1" 2>/dev/null && [ -d "$3" ]; do sleep 1; done
if [ -d "$2" ]; then
  if [ -n "$5" ]; then runuser -u "$5" -- "$4" -D "$2" -m immediate -w -t 20 stop; else "$4" -D "$2" -m immediate -w -t 20 stop; fi
fi >/dev/null 2>&1
rm -rf "$3"`;

function watchOver(pid, data, dir, pgCtl, user) {
  const args = ['-c', WATCHDOG, 'colony-pg-watchdog', String(pid), data, dir, pgCtl, user ?? ''];
  spawn('sh', args, { detached: true, stdio: 'ignore' }).unref();
}

/** The URL of database `name` in the cluster whose socket is in `dir`. */
export function clusterUrl(dir, name) {
  return `postgresql://colony@localhost/${name}?host=${encodeURIComponent(dir)}`;
}

/**
 * Creates the database `name` in the running cluster whose socket is in `dir` (another
 * process may have started it: a test worker and its global set-up): empty, or a copy
 * of the database `template` (which nobody may be connected to); its URL.
 */
export function createDatabase(dir, name, template) {
  const pgBin = findPgBin();
  if (!pgBin) throw new Error('no PostgreSQL server binaries');
  const from = template ? ['-T', template] : [];
  execFileSync(join(pgBin, 'createdb'), ['-h', dir, '-U', 'colony', ...from, name], { timeout: 30_000, stdio: 'pipe' });
  return clusterUrl(dir, name);
}

/** Runs `sql` with psql (another OS process) and returns its unaligned output; throws on any error. */
export function psqlQuery(url, sql) {
  const pgBin = findPgBin();
  if (!pgBin) throw new Error('no PostgreSQL server binaries');
  const out = spawnSync(join(pgBin, 'psql'), [url, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
    timeout: 15_000,
  });
  if (out.status !== 0 || out.stderr) throw new Error(`psql failed (${out.status}): ${out.stderr || out.error}`);
  return out.stdout.trim();
}
