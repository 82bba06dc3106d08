/**
 * @module pg/store/open-store
 * Opens colony's store on PostgreSQL: a node-postgres pool (`application_name`
 * `colony store`, so it shows in `pg_stat_activity`), the schema checked and migrated
 * like the SQLite store's (a database a newer colony migrated opens read-only with
 * STORE_TOO_NEW), and a `PgStore` over it.
 */

import { defaultRefuse, type RefuseStore } from '../../_store-state';
import { MIGRATIONS } from '../_migrations.generated';
import { maskUrl } from '../_url';
import { applyPgMigrations } from '../migrate';
import { isPostgresUrl, loadDriver, PgStoreError } from '../open';
import * as pgQueries from '../queries/index';
import { connectFailed } from './_errors';
import { pgSchemaState } from './_schema-state';
import { PgStore } from './pg-store';

export interface OpenPgStoreOptions {
  /** Milliseconds a write waits for other transactions' locks; default 15 000 (as SQLite). */
  readonly busyTimeoutMs?: number;
  /** Makes the error a refusal throws (default: a StoreError). */
  readonly refuse?: RefuseStore;
  /** Most clients the pool opens; default 10. */
  readonly maxClients?: number;
}

export const PG_APPLICATION_NAME = 'colony store';

/**
 * The default wait for locks: the SQLite store's BUSY_TIMEOUT_MS (a test holds them
 * equal), not imported, so this entry does not load the SQLite store module.
 */
export const PG_BUSY_TIMEOUT_MS = 15_000;

export async function openPgStore(url: string, options: OpenPgStoreOptions = {}): Promise<PgStore> {
  const location = maskUrl(url);
  if (!isPostgresUrl(url)) throw new PgStoreError('PG_URL_INVALID', `not a PostgreSQL URL: ${location}`);
  const pg = await loadDriver();
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxClients ?? 10,
    application_name: PG_APPLICATION_NAME,
  });
  // An idle client the server drops must not crash the process: the pool replaces it.
  pool.on('error', () => {});
  try {
    const client = await pool.connect().catch((error: unknown) => {
      throw connectFailed(error, url, location);
    });
    let refusal: Awaited<ReturnType<typeof pgSchemaState>>;
    try {
      refusal = await pgSchemaState(client, MIGRATIONS, location);
      if (!refusal) await applyPgMigrations(client);
    } finally {
      client.release();
    }
    const store = new PgStore(
      { pool, db: drizzle(pool), drizzleOn: (c) => drizzle(c), url },
      {
        location,
        refusal,
        refuse: options.refuse ?? defaultRefuse,
        busyTimeoutMs: options.busyTimeoutMs ?? PG_BUSY_TIMEOUT_MS,
      },
    );
    store.queries = pgQueries;
    return store;
  } catch (error) {
    await pool.end();
    throw error;
  }
}
