/**
 * @module pg/open
 * Opens colony's database on PostgreSQL: a node-postgres pool and drizzle over it, with
 * the migrations applied. `pg` is an optional peer dependency of @swarm/storage, loaded
 * here by dynamic import only, so a SQLite store never loads it; without it installed
 * this refuses with `PG_DRIVER_MISSING`; a server that cannot be reached or refuses
 * the login is `PG_CONNECT_FAILED`, its message showing the URL with the password masked.
 */
import type { Pool } from 'pg';
import { maskUrl, scrubSecret } from './_url';
import { applyPgMigrations } from './migrate';
import { type PgTables, pgTables } from './schema';

export class PgStoreError extends Error {
  constructor(
    readonly code: 'PG_DRIVER_MISSING' | 'PG_URL_INVALID' | 'PG_CONNECT_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'PgStoreError';
  }
}

export interface PgDatabase {
  readonly pool: Pool;
  readonly db: import('drizzle-orm/node-postgres').NodePgDatabase<PgTables>;
  /** How many migrations this open applied. */
  readonly migrated: number;
  close(): Promise<void>;
}

/** True for a URL naming a PostgreSQL server (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The `pg` module, loaded on first use (PG_DRIVER_MISSING when it is not installed). */
export async function loadDriver(): Promise<typeof import('pg')> {
  try {
    const mod = await import('pg');
    return (mod as unknown as { default?: typeof import('pg') }).default ?? mod;
  } catch (error) {
    throw new PgStoreError(
      'PG_DRIVER_MISSING',
      `PostgreSQL needs the 'pg' package installed next to @swarm/storage (${String(error)})`,
    );
  }
}

/** Connects to `url`, applies pending migrations, returns drizzle over the pool. */
export async function openPgDatabase(url: string, options: { max?: number } = {}): Promise<PgDatabase> {
  if (!isPostgresUrl(url)) throw new PgStoreError('PG_URL_INVALID', `not a PostgreSQL URL: ${maskUrl(url)}`);
  const pg = await loadDriver();
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  try {
    const client = await pool.connect().catch((error: unknown) => {
      const why = scrubSecret(error instanceof Error ? error.message : String(error), url);
      throw new PgStoreError('PG_CONNECT_FAILED', `cannot connect to ${maskUrl(url)}: ${why}`);
    });
    let migrated: number;
    try {
      migrated = await applyPgMigrations(client);
    } finally {
      client.release();
    }
    const db = drizzle(pool, { schema: pgTables });
    return { pool, db, migrated, close: () => pool.end() };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
