/**
 * The dialect seam (src/_dialect.ts): a query function exported by @swarm/storage runs
 * the SQLite function on a `Store` (synchronously) and its PostgreSQL twin on a
 * PgStore (`openPgStore` attaches `pgQueries`); a twin not ported yet rejects with
 * STORE_UNSUPPORTED, never a crash.
 */
import { expect, it } from 'vitest';
import { type ColonyStore, countClaims, exportStore, insertClaim, openStore, StoreError } from '../src/index';
import { describePgStore } from './_pg-store';

it('runs the SQLite function synchronously on a Store', async () => {
  const store = openStore({ path: ':memory:' });
  expect(store.dialect).toBe('sqlite');
  expect(store.location).toBe(':memory:');
  const count = countClaims(store);
  expect(count).toBe(0);
  store.close();
});

describePgStore('the dialect seam on PostgreSQL', (ctx) => {
  it('runs the twin of the same name on a PgStore', async () => {
    const store: ColonyStore = await ctx.open();
    expect(store.dialect).toBe('postgres');
    expect(store.location).not.toMatch(/password/);
    const rows = ctx.rows();
    await rows.insert('sessions', { id: 'claude' });
    const task = await rows.insert('tasks', { repo_root: '/r/dispatch', branch: 'main' });
    const obs = await rows.insert('observations', { session_id: 'claude', task_id: task.id });
    const claim = {
      taskId: Number(task.id),
      filePath: 'src/a.ts',
      sessionId: 'claude',
      agent: 'claude',
      observationId: Number(obs.id),
    };
    const made = await store.write(() => insertClaim(store, claim, 1_000));
    expect(made).toMatchObject({ state: 'active', filePath: 'src/a.ts' });
    expect(await countClaims(store)).toBeGreaterThanOrEqual(1);
  });

  it('rejects a query without a twin with STORE_UNSUPPORTED', async () => {
    const store: ColonyStore = await ctx.open();
    // A PostgreSQL store is exported by URL (`exportPg`), not through the SQLite exporter: no twin.
    const call = Promise.resolve(exportStore(store, () => {}));
    await expect(call).rejects.toBeInstanceOf(StoreError);
    await expect(call).rejects.toMatchObject({
      code: 'STORE_UNSUPPORTED',
      message: 'exportStore is not available on PostgreSQL yet',
    });
  });
});
