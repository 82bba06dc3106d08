/**
 * Race-safety across real OS processes: many processes opening one fresh database
 * file at the same moment all migrate it (exactly once) and write without SQLITE_BUSY.
 * Runs the BUILT package (dist), as a separate process would load it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/_migrations.generated';
import { tempDir } from './_matrix';

const DIST = join(import.meta.dirname, '..', 'dist', 'index.js');
const PROCESSES = 8;

interface Child {
  readonly ready: Promise<void>;
  go(): void;
  readonly done: Promise<Run>;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Each child loads the package, says "ready", waits for "go" on stdin, then opens the store and writes. */
const CHILD = `
const [dist, path, id] = process.argv.slice(1);
const { openStore, upsertSession, ensureTask, joinTask, insertObservation } = await import(dist);
process.stdout.write('ready\\n');
await new Promise((go) => process.stdin.once('data', go));
process.stdin.destroy();
const store = openStore({ path });
const result = await store.write(async () => {
  upsertSession(store, { id }, Date.now());
  const { task, created } = ensureTask(store, { repoRoot: '/race', branch: 'main' }, Date.now());
  joinTask(store, task.id, id, 'agent', Date.now());
  for (let i = 0; i < 20; i++) await insertObservation(store, { sessionId: id, taskId: task.id, kind: 'note', content: id + ' note ' + i, ts: Date.now(), tokenCount: 1 });
  return { taskId: task.id, created };
});
store.close();
console.log(JSON.stringify(result));
`;

function spawnChild(args: string[]): Child {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (d) => {
    stdout += d;
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      markReady();
      resolve({ code, stdout: stdout.replace(/^ready\n/, ''), stderr });
    });
  });
  return { ready, go: () => child.stdin.end('go\n'), done };
}

describe('many processes opening one fresh database file', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(() => {
    if (!existsSync(DIST)) {
      throw new Error(`${DIST} is missing: run \`pnpm turbo run build --filter=@swarm/storage\` first`);
    }
  });

  it('all migrate and write at once, with no SQLITE_BUSY and one migration run', async () => {
    const path = join(dir, 'fresh.db');
    const children = Array.from({ length: PROCESSES }, (_, i) =>
      spawnChild([pathToFileURL(DIST).href, path, `proc-${i}`]),
    );
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.go();
    const runs = await Promise.all(children.map((c) => c.done));

    for (const r of runs) {
      expect(r.stderr).not.toMatch(/SQLITE_BUSY|database is locked/i);
      expect(r.code, r.stderr).toBe(0);
    }
    const results = runs.map((r) => JSON.parse(r.stdout) as { taskId: number; created: boolean });
    expect(new Set(results.map((r) => r.taskId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);

    const sqlite = new Database(path, { readonly: true });
    try {
      const count = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
      expect(count('SELECT count(*) AS n FROM __drizzle_migrations')).toBe(MIGRATIONS.length);
      expect(count('SELECT count(*) AS n FROM sessions')).toBe(PROCESSES);
      expect(count('SELECT count(*) AS n FROM task_participants')).toBe(PROCESSES);
      expect(count('SELECT count(*) AS n FROM observations')).toBe(PROCESSES * 20);
      expect(count(`SELECT count(*) AS n FROM observations_fts WHERE observations_fts MATCH '"note"'`)).toBe(
        PROCESSES * 20,
      );
    } finally {
      sqlite.close();
    }
  });
});

describe('opening a store where no folder can be made', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Opens in a child process, so a regression shows as a timeout instead of hanging the suite. */
  function openElsewhere(path: string): { status: number | null; stdout: string; timedOut: boolean } {
    const script = `const { openStore } = await import(process.argv[1]);
      try { openStore({ path: process.argv[2] }); console.log('opened'); } catch (e) { console.log('threw ' + e.code); }`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, pathToFileURL(DIST).href, path], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    return { status: run.status, stdout: run.stdout.trim(), timedOut: run.error !== undefined };
  }

  // Node's mkdir { recursive: true } spins forever at 100% CPU under /proc (procfs answers ENOENT).
  it.skipIf(!existsSync('/proc/self'))('fails fast under /proc', () => {
    expect(openElsewhere('/proc/colony-nope/deeper/x.db')).toEqual({
      status: 0,
      stdout: 'threw ENOENT',
      timedOut: false,
    });
  });

  it.skipIf(process.platform === 'win32')('fails fast under a dangling symlink', () => {
    const link = join(dir, 'dangling');
    symlinkSync(join(dir, 'does-not-exist'), link);
    expect(openElsewhere(join(link, 'sub', 'x.db'))).toEqual({ status: 0, stdout: 'threw ENOENT', timedOut: false });
  });
});
