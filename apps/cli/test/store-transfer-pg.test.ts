/**
 * `colony store export|import` across backends, as real processes: a SQLite store
 * filled by real tool calls is exported, imported into a real PostgreSQL database
 * (a throwaway cluster) and exported from there: byte-identical; that export imported
 * into a fresh SQLite store exports identically again. A PostgreSQL target that holds
 * rows is refused and left unchanged; a failed login never prints the password; and the
 * CLI's other commands (`colony status`) then serve from the PostgreSQL store.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describePg, type PgCluster, startCluster } from '../../../packages/storage/test/_postgres';
import { fillStore } from './_store-fill';
import { seedViewerStore } from './_viewer-seed';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');

function colony(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, NO_COLOR: '1', COLONY_DATABASE_URL: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function exported(args: string[], env: Record<string, string> = {}): string {
  const run = colony(['store', 'export', ...args, '--no-timestamp'], env);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

describePg('colony store export / import on PostgreSQL', () => {
  let dir: string;
  let cluster: PgCluster;
  let first: string;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'colony-store-pg-'));
    cluster = await startCluster();
    const seeded = await seedViewerStore(dir);
    await fillStore(seeded.home, seeded.db, seeded.repo);
    first = exported(['--db', seeded.db]);
    file = join(dir, 'sqlite.jsonl');
    writeFileSync(file, first);
  }, 90_000);
  afterAll(() => {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('SQLite -> PostgreSQL -> export: byte-identical; back into a fresh SQLite: identical again', async () => {
    const url = await cluster.database();
    const run = colony(['store', 'import', '--db', url, '--in', file, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const counts = JSON.parse(first.split('\n').at(-2) ?? '{}').end.counts;
    expect(JSON.parse(run.stdout)).toMatchObject({ tables: counts });
    expect(counts.observations).toBeGreaterThan(0);
    const fromPg = exported(['--db', url]);
    expect(fromPg).toBe(first);
    expect(exported([], { COLONY_DATABASE_URL: url })).toBe(first);
    const again = join(dir, 'again.jsonl');
    writeFileSync(again, fromPg);
    const sqlite = join(dir, 'back', 'colony.db');
    const back = colony(['store', 'import', '--db', sqlite, '--in', again]);
    expect(back.code, back.stderr).toBe(0);
    expect(exported(['--db', sqlite])).toBe(first);
  });

  it('serves CLI commands from the PostgreSQL store it imported into (--db or $COLONY_DATABASE_URL)', async () => {
    const url = await cluster.database();
    expect(colony(['store', 'import', '--db', url, '--in', file]).code).toBe(0);
    const counts = JSON.parse(first.split('\n').at(-2) ?? '{}').end.counts;
    for (const [args, env] of [
      [['--db', url], {}],
      [[], { COLONY_DATABASE_URL: url }],
    ] as const) {
      const run = colony(['status', ...args, '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      const status = JSON.parse(run.stdout);
      expect(status).toMatchObject({
        sessions: counts.sessions,
        observations: counts.observations,
        tasks: counts.tasks,
      });
      expect(status.db_path).toMatch(/^postgresql:\/\/colony@localhost\//);
    }
  });

  it('refuses a PostgreSQL target that holds rows and leaves it unchanged', async () => {
    const url = await cluster.database();
    expect(colony(['store', 'import', '--db', url, '--in', file]).code).toBe(0);
    const run = colony(['store', 'import', '--in', file], { COLONY_DATABASE_URL: url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('STORE_IMPORT_NOT_EMPTY');
    expect(exported(['--db', url])).toBe(first);
  });

  it('never prints the password of a URL it cannot log in with', () => {
    const secret = 'hunter2-Sekret';
    const url = `postgresql://colony:${secret}@localhost/no_such_db?host=${encodeURIComponent(cluster.dir)}`;
    for (const args of [
      ['store', 'export', '--db', url],
      ['store', 'import', '--db', url, '--in', file],
    ]) {
      const run = colony(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('PG_CONNECT_FAILED');
      expect(run.stderr).toContain('colony:***@');
      expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    }
  });
});
