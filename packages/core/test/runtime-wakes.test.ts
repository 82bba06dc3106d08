/**
 * The runtime's wake source chosen by backend (src/runtime/_wakes.ts): a SQLite path
 * keeps the poll; a PostgreSQL URL listens on `colony_wake`, and a blocking message
 * written by another OS process (psql) on a real server wakes the right agent of the
 * session, urgently, within a bounded time, while mail for another session, or on
 * another thread than the session's (which its mailbox does not read), wakes nobody.
 */

import { colonySessionId, memoryMailbox } from '@swarm/runtime';
import { openPgDatabase } from '@swarm/storage/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStatement, RowFactory, SQLITE_TABLES } from '../../storage/test/_pg-rows';
import { describePg, type PgCluster, psql, startCluster } from '../../storage/test/_postgres';
import { sessionWakeSource } from '../src/runtime/_wakes.js';

type Delivery = [string, boolean];
async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const options = { session_id: 's1', agents: ['ada', 'bo'], task_id: 1, poll_ms: 10, log: () => undefined };

describe('sessionWakeSource on SQLite', () => {
  it('is the poll of the unread inboxes', async () => {
    const mailbox = memoryMailbox(() => 0);
    const got: Delivery[] = [];
    const stop = sessionWakeSource({ ...options, store: '/tmp/colony.db', mailbox }).start((to, u) => {
      got.push([to, u]);
    });
    await mailbox.send({ from: 'operator', to: 'ada', body: 'hi', urgent: true });
    await until(() => got.length > 0);
    await stop();
    expect(got[0]).toEqual(['ada', true]);
  });
});

describePg('sessionWakeSource on PostgreSQL', () => {
  let cluster: PgCluster;
  let url: string;
  let db: Awaited<ReturnType<typeof openPgDatabase>>;
  let rows: RowFactory;
  const listeners = async () =>
    Number(
      (await db.pool.query("SELECT count(*) AS n FROM pg_stat_activity WHERE query = 'LISTEN colony_wake'")).rows[0]?.n,
    );

  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.database();
    db = await openPgDatabase(url);
    rows = new RowFactory(db.pool as never, SQLITE_TABLES);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    cluster?.stop();
  });

  it('wakes the addressed agent of the session when another process commits a blocking message', async () => {
    const mailbox = memoryMailbox(() => 0);
    const got: Delivery[] = [];
    const thread = Number((await rows.insert('tasks')).id);
    const source = sessionWakeSource({ ...options, task_id: thread, store: url, mailbox, safety_poll_ms: 60_000 });
    const stop = source.start((to, urgent) => void got.push([to, urgent]));
    try {
      await until(async () => (await listeners()) === 1);
      const blocking = (session: string, task_id = thread) =>
        rows.valid('messages', { urgency: 'blocking', status: 'unread', to_session_id: session, task_id });
      const foreign = await blocking(colonySessionId('s2', 'bo'));
      const offThread = await blocking(colonySessionId('s1', 'ada'), Number((await rows.insert('tasks')).id));
      const mine = await blocking(colonySessionId('s1', 'bo'));
      const started = Date.now();
      psql(url, [foreign, offThread, mine].map((row) => insertStatement('messages', row)).join(''));
      await until(() => got.length > 0, 2000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(got).toEqual([['bo', true]]);
    } finally {
      await stop();
    }
    await until(async () => (await listeners()) === 0, 2000);
  });
});
