/**
 * A plan sub-task claimed at once by 16 OS processes, each on its own connection, as
 * `INSERT ... ON CONFLICT DO NOTHING RETURNING`: the partial unique index
 * plan_subtask_claims_active_uq lets exactly one win. The processes connect, then wait
 * on an advisory lock the test holds; it releases the lock once all 16 wait on it, so
 * the inserts really race.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPgDatabase } from '../src/pg/index';
import * as schema from '../src/schema/index';
import { RowFactory } from './_pg-rows';
import { describePg, type PgCluster, startCluster } from './_postgres';

const RACERS = 16;
const LOCK = 4242;
const PG_MODULE = createRequire(import.meta.url).resolve('pg');
const CHILD = `
const pg = require(process.env.PG_MODULE);
(async () => {
  const c = new pg.Client({ connectionString: process.env.URL });
  await c.connect();
  process.stdout.write('ready\\n');
  await c.query('SELECT pg_advisory_lock_shared(${LOCK})');
  const r = await c.query(
    "INSERT INTO plan_subtask_claims (subtask_id, session_id, agent, state, claimed_at, observation_id) VALUES ($1, $2, 'racer', 'active', 1, 1) ON CONFLICT DO NOTHING RETURNING id",
    [process.env.SUBTASK, process.env.SESSION],
  );
  process.stdout.write(JSON.stringify({ won: r.rowCount === 1 }) + '\\n');
  await c.end();
})().catch((e) => { console.error(e); process.exit(2); });
`;

function racer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['-e', CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr.on('data', (b: Buffer) => {
    err += b.toString();
  });
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, out, err })),
  );
  return { child, done, ready: () => out.includes('ready') };
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describePg('PostgreSQL claim race', () => {
  let cluster: PgCluster;
  let url: string;
  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.database();
    await (await openPgDatabase(url)).close();
  });
  afterAll(() => cluster?.stop());

  it(`${RACERS} processes claim one sub-task; exactly one wins`, async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = new Map(
      [schema.planSubtasks, schema.sessions, schema.plans, schema.tasks].map((t: SQLiteTable) => [
        getTableConfig(t).name,
        t,
      ]),
    );
    const rows = new RowFactory(client, tables);
    const subtask = await rows.insert('plan_subtasks');
    const racers: Array<ReturnType<typeof racer>> = [];
    try {
      await client.query('SELECT pg_advisory_lock($1)', [LOCK]);
      for (let i = 0; i < RACERS; i++) {
        const session = await rows.insert('sessions');
        racers.push(racer({ PG_MODULE, URL: url, SUBTASK: String(subtask.id), SESSION: String(session.id) }));
      }
      await until(() => racers.every((r) => r.ready()), 'every racer to connect');
      const waiting = async () =>
        Number(
          (await client.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0]
            .n,
        ) === RACERS;
      await until(waiting, 'every racer to wait on the lock');
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK]);
      const results = await Promise.all(racers.map((r) => r.done));
      for (const r of results) expect(r.code, r.err).toBe(0);
      const wins = results.filter((r) => JSON.parse(r.out.trim().split('\n').at(-1) as string).won);
      expect(wins).toHaveLength(1);
      const active = await client.query(
        `SELECT count(*) AS n FROM plan_subtask_claims WHERE subtask_id = $1 AND state = 'active'`,
        [subtask.id],
      );
      expect(Number(active.rows[0].n)).toBe(1);
    } finally {
      for (const r of racers) if (r.child.exitCode === null && r.child.pid) process.kill(-r.child.pid, 'SIGKILL');
      await client.end();
    }
  });
});
