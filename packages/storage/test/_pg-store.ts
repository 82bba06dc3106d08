/**
 * Test helpers for PgStore suites on a real server: one throwaway cluster per file
 * (`_postgres.ts`), a fresh database per `database()`, stores closed after each test,
 * an admin client (another session) for looking and interfering, and valid rows
 * (`_pg-rows.ts`) for seeding.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type OpenPgStoreOptions, openPgStore, type PgStore } from '../src/pg/index';
import { RowFactory, SQLITE_TABLES } from './_pg-rows';
import { describePg, type PgCluster, startCluster } from './_postgres';

export interface PgStoreContext {
  /** The URL of this file's shared database (migrated). */
  url(): string;
  /** A new empty database, migrated; its URL. */
  database(): Promise<string>;
  /** Opens a store (on `url` or this file's database), closed after the test. */
  open(options?: OpenPgStoreOptions & { url?: string }): Promise<PgStore>;
  /** A client on this file's database: another session than any store's. */
  admin(): pg.Client;
  rows(): RowFactory;
  cluster(): PgCluster;
}

export function describePgStore(name: string, suite: (ctx: PgStoreContext) => void): void {
  describePg(name, () => {
    let cluster: PgCluster;
    let url: string;
    let admin: pg.Client;
    const opened: PgStore[] = [];
    const database = async () => {
      const next = await cluster.database();
      await (await openPgStore(next)).close();
      return next;
    };
    beforeAll(async () => {
      cluster = await startCluster();
      url = await database();
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });
    afterAll(async () => {
      await admin?.end();
      cluster?.stop();
    });
    suite({
      url: () => url,
      database,
      async open(options = {}) {
        const store = await openPgStore(options.url ?? url, options);
        opened.push(store);
        return store;
      },
      admin: () => admin,
      rows: () => new RowFactory(admin, SQLITE_TABLES),
      cluster: () => cluster,
    });
  });
}

/** Polls `check` every 20 ms until it holds or `ms` pass (then throws naming `what`). */
export async function until(check: () => Promise<boolean> | boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
