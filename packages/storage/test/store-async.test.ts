/**
 * Store.write / Store.read with async bodies (issue 18 step B): one FIFO turn per
 * outermost transaction, nested writes as savepoints, reads that never see another
 * body's uncommitted rows, rollback and refusal.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { countSessions, getSessions, openStore, StoreError, upsertSession } from '../src/index';
import { describeMatrix, tempDir } from './_matrix';

describeMatrix('Store async bodies', ({ open }) => {
  it('writes what a settled body left running in a transaction of its own, not in the next body', async () => {
    const store = open();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let late: Promise<unknown> = Promise.resolve();
    await store.write(async () => {
      // Not awaited by its body: it runs on after the body's transaction has committed.
      late = gate.then(() => store.write(() => upsertSession(store, { id: 'late' }, 1)));
    });
    const next = store.write(async () => {
      upsertSession(store, { id: 'next' }, 1);
      release();
      await sleep(5);
      throw new Error('next rolls back');
    });
    await expect(next).rejects.toThrow('next rolls back');
    await late;
    expect(getSessions(store, ['late', 'next']).map((s) => s.id)).toEqual(['late']);
  });

  it('runs concurrent writes one after another, in call order', async () => {
    const store = open();
    const order: string[] = [];
    const writer = (name: string, ms: number) =>
      store.write(async () => {
        order.push(`${name}:start`);
        await sleep(ms);
        upsertSession(store, { id: name }, 1);
        order.push(`${name}:end`);
      });
    await Promise.all([writer('a', 30), writer('b', 1), writer('c', 10)]);
    expect(order).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
    expect(countSessions(store)).toBe(3);
  });

  it('rolls back only the nested write that threw (a savepoint)', async () => {
    const store = open();
    await store.write(async () => {
      upsertSession(store, { id: 'outer' }, 1);
      await expect(
        store.write(async () => {
          upsertSession(store, { id: 'inner' }, 1);
          await sleep(1);
          throw new Error('inner refused');
        }),
      ).rejects.toThrow('inner refused');
      await store.write(() => upsertSession(store, { id: 'after' }, 1));
    });
    expect(
      getSessions(store, ['outer', 'inner', 'after'])
        .map((s) => s.id)
        .sort(),
    ).toEqual(['after', 'outer']);
  });

  it('makes a read wait for another body’s open transaction (no uncommitted rows seen)', async () => {
    const store = open();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let wrote = () => {};
    const written = new Promise<void>((resolve) => {
      wrote = resolve;
    });
    const writing = store.write(async () => {
      upsertSession(store, { id: 'pending' }, 1);
      wrote();
      await gate;
    });
    await written;
    let seen: number | undefined;
    const reading = store.read(() => {
      seen = countSessions(store);
      return seen;
    });
    await sleep(20);
    expect(seen).toBeUndefined(); // still waiting for the writer's turn
    release();
    await writing;
    expect(await reading).toBe(1); // it ran after the commit
  });

  it('does not let a second writer in while a body awaits real I/O', async () => {
    const store = open();
    const events: string[] = [];
    const slow = store.write(async () => {
      upsertSession(store, { id: 'slow' }, 1);
      await new Promise((resolve) => setTimeout(resolve, 40));
      events.push(`slow sees ${countSessions(store)}`);
    });
    const fast = store.write(() => {
      upsertSession(store, { id: 'fast' }, 1);
      events.push(`fast sees ${countSessions(store)}`);
    });
    await Promise.all([slow, fast]);
    expect(events).toEqual(['slow sees 1', 'fast sees 2']);
  });

  it('rolls back a body that rejects and passes its error on', async () => {
    const store = open();
    await expect(
      store.write(async () => {
        upsertSession(store, { id: 'gone' }, 1);
        await sleep(1);
        throw new Error('body failed');
      }),
    ).rejects.toThrow('body failed');
    expect(countSessions(store)).toBe(0);
    // The turn was given back: the next write runs.
    await store.write(() => upsertSession(store, { id: 'next' }, 1));
    expect(countSessions(store)).toBe(1);
  });

  it('runs a synchronous body that finds the store free before write returns', () => {
    const store = open();
    void store.write(() => upsertSession(store, { id: 'now' }, 1));
    expect(countSessions(store)).toBe(1);
  });
});

it('translates a lock held past the busy timeout into STORE_BUSY after a rollback', async () => {
  const dir = tempDir();
  const path = `${dir}/colony.db`;
  const holder = openStore({ path });
  const waiter = openStore({ path, busyTimeoutMs: 50 });
  try {
    let release = () => {};
    const held = holder.write(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    const refused = await waiter.write(() => upsertSession(waiter, { id: 'w' }, 1)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreError);
    expect((refused as StoreError).code).toBe('STORE_BUSY');
    release();
    await held;
    // The waiter's turn was released: it writes once the lock is free.
    await waiter.write(() => upsertSession(waiter, { id: 'w' }, 1));
    expect(countSessions(holder)).toBe(1);
  } finally {
    holder.close();
    waiter.close();
  }
});

it('refuses a write on a store that refuses writes before its body runs', async () => {
  const dir = tempDir();
  const path = `${dir}/colony.db`;
  openStore({ path }).close();
  const sqlite = new Database(path);
  sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('future', 9e15);
  sqlite.close();
  const store = openStore({ path });
  try {
    let ran = false;
    await expect(
      store.write(() => {
        ran = true;
      }),
    ).rejects.toMatchObject({ code: 'STORE_TOO_NEW' });
    expect(ran).toBe(false);
  } finally {
    store.close();
  }
});
