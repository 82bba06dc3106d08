/**
 * PgStore on a real PostgreSQL server: a write commits or rolls back as one
 * transaction, a nested write is a savepoint and a nested read shares the client, a read
 * sees one snapshot, lock waits end in STORE_BUSY (the SQLite refusal, through
 * `refuse`), conflicts are retried, a newer schema refuses writes (STORE_TOO_NEW), no
 * message carries the password, and close leaves no connection behind.
 */

import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { BUSY_TIMEOUT_MS } from '../src/_store';
import { openPgStore, PG_BUSY_TIMEOUT_MS, type PgStore, pgTables, type StoreRefusal } from '../src/pg/index';
import { pgClient, pgDb } from '../src/pg/store/_handle';
import { describePgStore, until } from './_pg-store';

const insertSession = (store: PgStore, id: string) =>
  pgClient(store).query(`INSERT INTO sessions (id, started_at, last_heartbeat_at) VALUES ($1, 1, 1)`, [id]);
const sessionCount = async (store: PgStore, prefix: string) =>
  Number(
    (await pgClient(store).query(`SELECT count(*) AS n FROM sessions WHERE id LIKE $1`, [`${prefix}%`])).rows[0]?.n,
  );

describePgStore('PgStore transactions', (ctx) => {
  it('waits for locks as long as the SQLite store by default', () => {
    expect(PG_BUSY_TIMEOUT_MS).toBe(BUSY_TIMEOUT_MS);
  });

  it('commits what the body wrote and resolves to its result; a throw rolls it all back', async () => {
    const store = await ctx.open();
    expect(await store.write(async () => (await insertSession(store, 'c-1')).rowCount)).toBe(1);
    const seen = await ctx.admin().query(`SELECT id FROM sessions WHERE id = 'c-1'`);
    expect(seen.rowCount).toBe(1);
    const boom = new Error('boom');
    await expect(
      store.write(async () => {
        await insertSession(store, 'c-2');
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await sessionCount(store, 'c-')).toBe(1);
  });

  it('makes a nested write a savepoint and runs a nested read on the same transaction', async () => {
    const store = await ctx.open();
    const inside = await store.write(async () => {
      await insertSession(store, 'n-a');
      await store
        .write(async () => {
          await insertSession(store, 'n-b');
          throw new Error('inner');
        })
        .catch(() => undefined);
      await store.write(() => insertSession(store, 'n-c'));
      return store.read(() => sessionCount(store, 'n-'));
    });
    expect(inside).toBe(2);
    const ids = await ctx.admin().query(`SELECT id FROM sessions WHERE id LIKE 'n-%' ORDER BY id`);
    expect(ids.rows.map((r) => r.id)).toEqual(['n-a', 'n-c']);
  });

  it('runs nested writes started at once one after another: a throw rolls back its own savepoint only', async () => {
    const store = await ctx.open();
    const outcomes = await store.write(() =>
      Promise.allSettled([
        store.write(() => insertSession(store, 'p-a')),
        store.write(async () => {
          await insertSession(store, 'p-b');
          await store.write(() => insertSession(store, 'p-b2'));
          throw new Error('inner');
        }),
        store.write(() => insertSession(store, 'p-c')),
      ]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('inner');
    const ids = await ctx.admin().query(`SELECT id FROM sessions WHERE id LIKE 'p-%' ORDER BY id`);
    expect(ids.rows.map((r) => r.id)).toEqual(['p-a', 'p-c']);
  });

  it('never lets code a body left running join its transaction once it has ended', async () => {
    const store = await ctx.open();
    let later: Promise<unknown> | undefined;
    await store.write(async () => {
      await insertSession(store, 'l-body');
      // A timer armed inside the body carries its context: it fires after the commit.
      later = new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        store.write(() => insertSession(store, 'l-late')),
      );
    });
    await later;
    const ids = await ctx.admin().query(`SELECT id FROM sessions WHERE id LIKE 'l-%' ORDER BY id`);
    expect(ids.rows.map((r) => r.id)).toEqual(['l-body', 'l-late']);
  });

  it('reads one snapshot, and refuses a write inside a read', async () => {
    const store = await ctx.open();
    const counts = await store.read(async () => {
      const before = await sessionCount(store, 'r-');
      await ctx.admin().query(`INSERT INTO sessions (id, started_at, last_heartbeat_at) VALUES ('r-1', 1, 1)`);
      return [before, await sessionCount(store, 'r-')];
    });
    expect(counts).toEqual([0, 0]);
    expect(await store.read(() => sessionCount(store, 'r-'))).toBe(1);
    await expect(store.read(() => store.write(() => insertSession(store, 'r-2')))).rejects.toThrow(
      /write inside a read/,
    );
  });

  it('runs the write rider inside each outermost write, and tells it whether that write committed', async () => {
    const store = await ctx.open();
    const committed: string[] = [];
    const rolledBack: string[] = [];
    let n = 0;
    store.setWriteRider(async () => {
      const id = `w-rider-${++n}`;
      await insertSession(store, id);
      return (ok) => (ok ? committed : rolledBack).push(id);
    });
    await store.write(() => insertSession(store, 'w-1'));
    await expect(store.write(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    store.setWriteRider(undefined);
    expect(committed).toEqual(['w-rider-1']);
    expect(rolledBack).toEqual(['w-rider-2']);
    expect(await sessionCount(store, 'w-')).toBe(2);
  });
});

describePgStore('PgStore lock waits, refusals, secrets and close', (ctx) => {
  async function holdRow(id: string) {
    const admin = ctx.admin();
    await admin.query(`INSERT INTO sessions (id, started_at, last_heartbeat_at) VALUES ($1, 1, 1)`, [id]);
    await admin.query('BEGIN');
    await admin.query(`UPDATE sessions SET ended_at = 1 WHERE id = $1`, [id]);
    return () => admin.query('ROLLBACK');
  }
  // A drizzle builder (its errors come wrapped in a DrizzleQueryError, the SQLSTATE in `cause`).
  const { sessions } = pgTables;
  const bump = (store: PgStore, id: string) =>
    pgDb(store)
      .update(sessions)
      .set({ lastHeartbeatAt: sql`${sessions.lastHeartbeatAt} + 1` })
      .where(eq(sessions.id, id));

  it('refuses a write whose row stays locked past busyTimeoutMs with STORE_BUSY, then writes once it is free', async () => {
    const store = await ctx.open();
    const release = await holdRow('b-1');
    const started = Date.now();
    const error = await store.write(() => bump(store, 'b-1'), { busyTimeoutMs: 300 }).catch((e: unknown) => e);
    const waited = Date.now() - started;
    await release();
    expect(error).toMatchObject({ name: 'StoreError', code: 'STORE_BUSY' });
    expect((error as { details: unknown }).details).toMatchObject({ retryable: true, db_path: store.location });
    expect((error as Error).message).toMatch(/stayed locked by another writer for more than 300 ms/);
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(5_000);
    expect((await store.write(() => bump(store, 'b-1'))).rowCount).toBe(1);
  });

  it('makes the refusal with the given refuse, and returns the unlessSettled answer without writing', async () => {
    const refusals: StoreRefusal[] = [];
    const refuse = (r: StoreRefusal) => {
      refusals.push(r);
      return new Error(`refused: ${r.code}`);
    };
    const store = await ctx.open({ refuse, busyTimeoutMs: 200 });
    const release = await holdRow('b-2');
    await expect(store.write(() => bump(store, 'b-2'))).rejects.toThrow('refused: STORE_BUSY');
    let asked = 0;
    const answer = await store.write(() => bump(store, 'b-2').then(() => 'wrote'), {
      busyTimeoutMs: 5_000,
      unlessSettled: () => (++asked >= 2 ? 'settled' : undefined),
    });
    await release();
    expect([answer, asked, refusals.map((r) => r.code)]).toEqual(['settled', 2, ['STORE_BUSY']]);
    const row = await ctx.admin().query(`SELECT last_heartbeat_at AS at FROM sessions WHERE id = 'b-2'`);
    expect(Number(row.rows[0]?.at)).toBe(1);
  });

  it('retries a deadlock: both writers of a lock cycle commit', async () => {
    const url = await ctx.database();
    await ctx.admin().query(`ALTER DATABASE ${new URL(url).pathname.slice(1)} SET deadlock_timeout = '50ms'`);
    const [a, b] = [await ctx.open({ url }), await ctx.open({ url })];
    for (const id of ['d-1', 'd-2']) await insertSession(a, id);
    let met = 0;
    const cross = (store: PgStore, first: string, second: string) =>
      store.write(async () => {
        await bump(store, first);
        met++;
        await until(() => met >= 2, 'both writers to hold one row', 5_000).catch(() => undefined);
        await bump(store, second);
      });
    await Promise.all([cross(a, 'd-1', 'd-2'), cross(b, 'd-2', 'd-1')]);
    const rows = await a.read(() => pgClient(a).query(`SELECT last_heartbeat_at AS at FROM sessions ORDER BY id`));
    expect(rows.rows.map((r) => Number(r.at))).toEqual([3, 3]);
  });

  it('serves reads and refuses writes with STORE_TOO_NEW on a database a newer colony migrated', async () => {
    const url = await ctx.database();
    const store = await ctx.open({ url });
    await pgClient(store).query(
      `INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('future', $1)`,
      [9_999_999_999_999],
    );
    const newer = await ctx.open({ url });
    expect([newer.writable, newer.refusal?.code]).toEqual([false, 'STORE_TOO_NEW']);
    expect(newer.refusal?.message).toMatch(/written by a newer colony \(store schema version \d+, this colony's/);
    await expect(newer.write(() => insertSession(newer, 'x'))).rejects.toMatchObject({ code: 'STORE_TOO_NEW' });
    expect(await newer.read(() => sessionCount(newer, 'x'))).toBe(0);
    expect(store.writable).toBe(true);
  });

  it('never shows the password: location, refusals, server errors and connect failures are masked', async () => {
    const secret = 's3cret-Pw';
    const url = ctx.url().replace('colony@', `colony:${secret}@`);
    const store = await ctx.open({ url, busyTimeoutMs: 100 });
    expect(store.location).toContain('colony:***@');
    const texts: string[] = [store.location];
    const server = await store.write(() => pgClient(store).query(`SELECT $1::int`, [secret])).catch((e: Error) => e);
    texts.push(String(server), JSON.stringify(server));
    expect(String(server)).toMatch(/invalid input syntax for type integer: "\*\*\*"/);
    const nowhere = url.replace(/host=[^&]*/, `host=${encodeURIComponent(`${ctx.cluster().dir}/none`)}`);
    const refused = await openPgStore(nowhere).catch((e: Error) => e);
    expect(refused).toMatchObject({ code: 'PG_CONNECT_FAILED' });
    texts.push(String(refused), JSON.stringify(refused));
    for (const text of texts) expect(text).not.toContain(secret);
  });

  it('survives the server ending its idle clients: no crash, the next write gets a new connection', async () => {
    const url = await ctx.database();
    const store = await ctx.open({ url });
    await store.write(() => insertSession(store, 'k-1'));
    const db = new URL(url).pathname.slice(1);
    const ended = await ctx
      .admin()
      .query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'colony store'`,
        [db],
      );
    expect(ended.rowCount).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    await store.write(() => insertSession(store, 'k-2'));
    expect(await store.read(() => sessionCount(store, 'k-'))).toBe(2);
  });

  it('close ends every client of the store (pg_stat_activity), and later calls reject', async () => {
    const url = await ctx.database();
    const store = await ctx.open({ url });
    await Promise.all([1, 2, 3].map(() => store.read(() => pgClient(store).query('SELECT pg_sleep(0.05)'))));
    const db = new URL(url).pathname.slice(1);
    const clients = async () =>
      Number(
        (
          await ctx
            .admin()
            .query(
              `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'colony store'`,
              [db],
            )
        ).rows[0]?.n,
      );
    expect(await clients()).toBe(3);
    await store.close();
    await until(async () => (await clients()) === 0, 'the store’s backends to exit', 5_000);
    await expect(store.read(() => 1)).rejects.toThrow('store is closed');
    await expect(store.write(() => 1)).rejects.toThrow('store is closed');
    await store.close();
  });
});
