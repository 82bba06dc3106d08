/**
 * @module pg/migrate
 * Applies the embedded PostgreSQL migrations (drizzle-pg/, see
 * scripts/embed-migrations.mjs) in one transaction under a transaction-level advisory
 * lock, so many processes opening one fresh database at once migrate it exactly once.
 * Bookkeeping is drizzle's own `drizzle.__drizzle_migrations`, so drizzle-kit stays
 * compatible.
 */
import type { EmbeddedMigration } from '../migrate';
import { MIGRATIONS } from './_migrations.generated';

/** What the migrator needs of a node-postgres client (a `pg.Client` or a pooled one). */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** An arbitrary constant naming colony's migration lock among the cluster's advisory locks. */
const LOCK_KEY = 0x636f6c6f;
const TABLE = 'drizzle.__drizzle_migrations';

/** Applies every migration newer than the last applied one; returns how many ran. */
export async function applyPgMigrations(
  client: PgQueryable,
  migrations: readonly EmbeddedMigration[] = MIGRATIONS,
): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
    );
    const { rows } = await client.query(`SELECT max(created_at) AS last FROM ${TABLE}`);
    const last = rows[0]?.last === null || rows[0]?.last === undefined ? -1 : Number(rows[0].last);
    let ran = 0;
    for (const m of migrations) {
      if (m.folderMillis <= last) continue;
      for (const statement of m.sql) await client.query(statement);
      await client.query(`INSERT INTO ${TABLE} (hash, created_at) VALUES ($1, $2)`, [m.hash, m.folderMillis]);
      ran++;
    }
    await client.query('COMMIT');
    return ran;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
