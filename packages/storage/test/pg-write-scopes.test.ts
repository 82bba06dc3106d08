/**
 * lockWriteScope on a real PostgreSQL server (the SQLite twin does nothing: its writes
 * already run alone): two stores (two pools, two server sessions) on one database; a
 * write that locked a scope makes the other store's write on that scope wait until
 * it ends, a write on another scope does not wait, the wait ends in STORE_BUSY once the
 * write's busyTimeoutMs is spent, and a call outside a write is refused.
 */
import { expect, it } from 'vitest';
import { openStore } from '../src/_store';
import { lockWriteScope } from '../src/index';
import { describePgStore, until } from './_pg-store';

it('does nothing on SQLite, inside a write', async () => {
  const store = openStore({ path: ':memory:' });
  try {
    expect(await store.write(() => lockWriteScope(store, 'rescue-run'))).toBeUndefined();
  } finally {
    store.close();
  }
});

describePgStore('lockWriteScope on PostgreSQL', (ctx) => {
  /** A write on `store` that takes `topic`'s turn and holds it until `release()`. */
  async function holding(topic: string) {
    const store = await ctx.open();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered = false;
    const done = store.write(async () => {
      await lockWriteScope(store, topic);
      entered = true;
      await gate;
    });
    await until(() => entered, `${topic} taken`);
    return { release, done };
  }
  const waiters = async () =>
    Number(
      (await ctx.admin().query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`))
        .rows[0].n,
    );

  it('makes a write on the same scope wait for the one holding its turn', async () => {
    const first = await holding('rescue-run');
    const other = await ctx.open();
    const order: string[] = [];
    const second = other.write(async () => {
      await lockWriteScope(other, 'rescue-run');
      order.push('second');
    });
    try {
      await until(async () => (await waiters()) === 1, 'the second write waiting', 5_000);
      expect(order).toEqual([]);
      order.push('first ends');
    } finally {
      first.release();
    }
    await Promise.all([first.done, second]);
    expect(order).toEqual(['first ends', 'second']);
  });

  it('lets a write on another scope through at once', async () => {
    const first = await holding('rescue-run');
    const other = await ctx.open();
    try {
      await other.write(() => lockWriteScope(other, 'ready-auto-claim'));
    } finally {
      first.release();
    }
    await first.done;
  });

  it('refuses with STORE_BUSY once the wait passes busyTimeoutMs', async () => {
    const first = await holding('ready-auto-claim');
    const other = await ctx.open({ busyTimeoutMs: 300 });
    try {
      await expect(other.write(() => lockWriteScope(other, 'ready-auto-claim'))).rejects.toMatchObject({
        code: 'STORE_BUSY',
      });
    } finally {
      first.release();
    }
    await first.done;
  });

  it('is refused outside a write (a read, or no transaction at all)', async () => {
    const store = await ctx.open();
    await expect(lockWriteScope(store, 'rescue-run')).rejects.toThrow('runs inside a write');
    await expect(store.read(() => lockWriteScope(store, 'rescue-run'))).rejects.toThrow('runs inside a write');
  });
});
