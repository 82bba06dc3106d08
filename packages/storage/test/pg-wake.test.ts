/**
 * Wake-ups on PostgreSQL (drizzle-pg/0002_wake_notify.sql, src/pg/wake/): rows written
 * by ANOTHER OS process (psql) reach `listenForWakes` on commit only, urgent ones only;
 * a dropped listener connection comes back and resyncs; close() leaves nothing behind.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listenForWakes, openPgDatabase, type WakeNotice, type WakeProblem } from '../src/pg/index';
import { WAKE_APPLICATION } from '../src/pg/wake/listener';
import { insertStatement, type Row, RowFactory, SQLITE_TABLES } from './_pg-rows';
import { describePg, type PgCluster, psql as runPsql, startCluster } from './_postgres';

/** Polls `check` until it holds or `ms` pass. */
async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describePg('wake-ups through LISTEN/NOTIFY', () => {
  let cluster: PgCluster;
  let url: string;
  let admin: pg.Client;
  let rows: RowFactory;
  const psql = (sql: string) => runPsql(url, sql);
  const message = (urgency: string, extra: Row = {}) =>
    rows.valid('messages', { urgency, status: 'unread', to_session_id: 'swarm-s1-ada', ...extra });

  /** Another process commits a blocking message: the listener's next notice is its. */
  const urgentArrives = async (notices: WakeNotice[]) => {
    const urgent = await message('blocking');
    const seen = notices.length;
    psql(insertStatement('messages', urgent));
    await until(() => notices.length === seen + 1);
    expect(notices[seen]?.id).toBe(Number(urgent.id));
  };
  /** A listener on the test database, connected, with what it has received. */
  const listening = async (options: { min_backoff_ms?: number } = {}) => {
    const notices: WakeNotice[] = [];
    const problems: WakeProblem[] = [];
    const resyncs = { count: 0 };
    const listener = await listenForWakes(url, (n) => void notices.push(n), {
      ...options,
      onResync: () => void resyncs.count++,
      onError: (p) => void problems.push(p),
    });
    await until(() => resyncs.count === 1);
    return { listener, notices, problems, resyncs };
  };

  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.database();
    await (await openPgDatabase(url)).close();
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    rows = new RowFactory(admin, SQLITE_TABLES);
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    cluster?.stop();
  });

  it('delivers an urgent message and a handoff written by another process, on commit only, urgent rows only', async () => {
    const { listener, notices, problems } = await listening();
    try {
      const fyi = await message('fyi');
      const urgent = await message('blocking');
      const started = Date.now();
      psql(insertStatement('messages', fyi) + insertStatement('messages', urgent));
      await until(() => notices.length > 0, 2000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(notices).toEqual([
        {
          kind: 'message',
          id: Number(urgent.id),
          task_id: Number(urgent.task_id),
          to_agent: urgent.to_agent,
          to_session_id: 'swarm-s1-ada',
          urgency: 'blocking',
        },
      ]);

      const rolledBack = await message('blocking');
      const question = await message('needs_reply', { to_session_id: null });
      psql(`BEGIN; ${insertStatement('messages', rolledBack)} ROLLBACK;`);
      psql(insertStatement('messages', question));
      await until(() => notices.length === 2);
      expect(notices[1]).toMatchObject({ id: Number(question.id), urgency: 'needs_reply', to_session_id: null });

      const baton = await rows.valid('batons', { status: 'pending', to_session_id: 'swarm-s1-bo' });
      psql(insertStatement('batons', baton));
      await until(() => notices.length === 3);
      expect(notices[2]).toEqual({
        kind: 'handoff',
        id: Number(baton.id),
        task_id: Number(baton.task_id),
        to_agent: baton.to_agent,
        to_session_id: 'swarm-s1-bo',
        urgency: null,
      });
      // A read message made unread and blocking again by UPDATE wakes its addressee once more.
      psql(
        `UPDATE messages SET status = 'read' WHERE id = ${urgent.id}; UPDATE messages SET status = 'unread' WHERE id = ${urgent.id};`,
      );
      await until(() => notices.length === 4);
      expect(notices[3]).toMatchObject({ kind: 'message', id: Number(urgent.id) });
      expect(notices.map((n) => n.id)).not.toContain(Number(fyi.id));
      expect(notices.map((n) => n.id)).not.toContain(Number(rolledBack.id));
      expect(problems).toEqual([]);
    } finally {
      await listener.close();
    }
  });

  it('reports a malformed payload and keeps listening', async () => {
    const { listener, notices, problems } = await listening();
    try {
      psql(`NOTIFY colony_wake, 'not json'; NOTIFY colony_wake, '{"kind":"message"}'`);
      await until(() => problems.length === 2);
      expect(problems.map((p) => p.code)).toEqual(['WAKE_PAYLOAD_INVALID', 'WAKE_PAYLOAD_INVALID']);
      await urgentArrives(notices);
    } finally {
      await listener.close();
    }
  });

  it("given a pool, listens on a client of its own to the pool's server, taking none of the pool's", async () => {
    const db = await openPgDatabase(url, { max: 2 });
    const notices: WakeNotice[] = [];
    let resyncs = 0;
    const listener = await listenForWakes(db.pool, (n) => void notices.push(n), { onResync: () => void resyncs++ });
    try {
      await until(() => resyncs === 1);
      expect(db.pool.totalCount).toBeLessThanOrEqual(1);
      expect(db.pool.waitingCount).toBe(0);
      await urgentArrives(notices);
    } finally {
      await listener.close();
      await db.close();
    }
  });

  it('reconnects after pg_terminate_backend, resyncs, and later notices arrive', async () => {
    const { listener, notices, problems, resyncs } = await listening({ min_backoff_ms: 20 });
    try {
      psql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${WAKE_APPLICATION}'`);
      await until(() => resyncs.count === 2);
      expect(listener.connected).toBe(true);
      expect(listener.connects).toBe(2);
      expect(problems.some((p) => p.code === 'WAKE_CONNECTION_LOST')).toBe(true);
      await urgentArrives(notices);
    } finally {
      await listener.close();
    }
  });

  it('close() leaves no socket, no timer and no server session behind, even while retrying', async () => {
    const handles = () =>
      process.getActiveResourcesInfo().filter((r) => r === 'PipeWrap' || r === 'TCPSocketWrap' || r === 'Timeout');
    const before = handles().length;
    let resyncs = 0;
    const live = await listenForWakes(url, () => undefined, { onResync: () => void resyncs++ });
    await until(() => resyncs === 1);
    await live.close();
    const problems: WakeProblem[] = [];
    const dead = `postgresql://colony:s3cret-pw@localhost/none?host=${encodeURIComponent(join(cluster.dir, 'nowhere'))}`;
    const retrying = await listenForWakes(dead, () => undefined, {
      onError: (p) => void problems.push(p),
      min_backoff_ms: 20,
    });
    await until(() => problems.length >= 2);
    await retrying.close();
    expect(problems.every((p) => p.code === 'WAKE_CONNECT_FAILED' && !p.message.includes('s3cret'))).toBe(true);
    expect(handles().length).toBeLessThanOrEqual(before);
    const sessions = async () =>
      (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [WAKE_APPLICATION])).rows;
    await until(async () => (await sessions()).length === 0, 2000);
  });
});
