/**
 * The races at the storage API on a real PostgreSQL server: 16 OS processes,
 * each with its own PgStore (the BUILT @swarm/storage/pg, so `pnpm build` first), claim
 * one plan sub-task through `pgQueries.claimSubtask`, 200 times: every trial exactly one
 * winner and no error. The racers are started once; each trial they wait on a shared
 * advisory lock the test holds and is released only once all 16 wait, so the claims
 * really race. Then the same 16 processes post 200 observations each, one write per
 * post (`pgQueries.insertObservation`), all at once: none is lost.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LineChild } from './_pg-children';
import { describePgStore } from './_pg-store';

const RACERS = 16;
const TRIALS = 200;
const POSTS = 200;
const LOCK = 4243;
const STORAGE = fileURLToPath(new URL('..', import.meta.url));
const DIST = `${STORAGE}dist/pg/index.js`;
const CHILD = fileURLToPath(new URL('./_pg-store-child.mjs', import.meta.url));

describePgStore('PgStore races across 16 processes', (ctx) => {
  const children: LineChild[] = [];
  const sessions = Array.from({ length: RACERS }, (_, i) => `racer-${i}`);
  const count = async (sql: string, values: unknown[] = []) =>
    Number((await ctx.admin().query(sql, values)).rows[0]?.n);

  beforeAll(async () => {
    if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run pnpm build first`);
    for (const id of sessions) await ctx.rows().insert('sessions', { id, ended_at: null });
    for (const SESSION of sessions) {
      children.push(new LineChild(CHILD, { URL: ctx.url(), SESSION, DIST, STORAGE, LOCK: String(LOCK) }));
    }
    for (const child of children) expect(await child.next(30_000)).toEqual({ ready: true });
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.send('exit');
    const codes = await Promise.all(children.map((c) => c.exit(10_000)));
    for (const child of children) child.kill();
    expect(codes.every((code) => code === 0)).toBe(true);
  }, 30_000);

  it(`${RACERS} processes claim one sub-task ${TRIALS} times: exactly one winner each time, no error`, async () => {
    const admin = ctx.admin();
    const plan = await ctx.rows().insert('plans');
    const task = await ctx.rows().insert('tasks');
    const { rows } = await admin.query(
      `INSERT INTO plan_subtasks (plan_id, subtask_index, title, description, file_scope, depends_on, task_id, branch,
         wave_index, status, observation_id)
       SELECT $1, g, 't', 'd', '[]', '[]', $2, 'b', 0, 'available', 1 FROM generate_series(0, $3::int - 1) g
       RETURNING id`,
      [plan.id, task.id, TRIALS],
    );
    const waiting = () =>
      count(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [LOCK]);
    const winners: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const subtask = Number(rows[trial]?.id);
      await admin.query('SELECT pg_advisory_lock($1)', [LOCK]);
      for (const child of children) child.send(`claim ${trial} ${subtask}`);
      const end = Date.now() + 20_000;
      while ((await waiting()) < RACERS) {
        if (Date.now() > end) throw new Error(`trial ${trial}: the racers never all waited on the barrier`);
        await new Promise((r) => setTimeout(r, 1));
      }
      await admin.query('SELECT pg_advisory_unlock($1)', [LOCK]);
      const answers = await Promise.all(children.map((c) => c.next()));
      expect(answers.filter((a) => a.error !== undefined)).toEqual([]);
      const won = answers.flatMap((a, i) => (a.won === true ? [sessions[i] as string] : []));
      expect(won, `trial ${trial}`).toHaveLength(1);
      winners.push(won[0] as string);
    }
    const held = await admin.query(
      `SELECT s.id, s.claimed_by_session_id AS by, (SELECT count(*) FROM plan_subtask_claims k
         WHERE k.subtask_id = s.id AND k.state = 'active') AS active
       FROM plan_subtasks s WHERE s.plan_id = $1 ORDER BY s.subtask_index`,
      [plan.id],
    );
    expect(held.rows.map((r) => [r.by, Number(r.active)])).toEqual(winners.map((w) => [w, 1]));
    expect(await count(`SELECT count(*) AS n FROM plan_subtask_claims`)).toBe(TRIALS);
  }, 60_000);

  it(`${RACERS} writers x ${POSTS} posts, one write each, all at once: nothing lost`, async () => {
    for (const child of children) child.send(`posts ${POSTS}`);
    const answers = await Promise.all(children.map((c) => c.next(40_000)));
    expect(answers).toEqual(children.map(() => ({ posts: POSTS })));
    const kept = `SELECT count(DISTINCT content) AS n FROM observations WHERE kind = 'post' AND session_id LIKE 'racer-%'`;
    expect(await count(kept)).toBe(RACERS * POSTS);
    expect(await count(`SELECT count(*) AS n FROM observations WHERE kind = 'post'`)).toBe(RACERS * POSTS);
  }, 60_000);
});
