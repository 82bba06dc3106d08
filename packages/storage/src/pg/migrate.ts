/**
 * @module pg/migrate
 * Applies the embedded PostgreSQL migrations (drizzle-pg/, see
 * scripts/embed-migrations.mjs) in one transaction under a transaction-level advisory
 * lock, so many processes opening one fresh database at once migrate it exactly once.
 * Bookkeeping is drizzle's own `drizzle.__drizzle_migrations`, so drizzle-kit stays
 * compatible. Two round trips: the lock and the bookkeeping read, then every pending
 * migration and its bookkeeping row as one multi-statement query (a fresh database's
 * hundred-odd statements would otherwise be as many round trips), then COMMIT.
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

const PREPARE = [
  'BEGIN',
  `SELECT pg_advisory_xact_lock(${LOCK_KEY})`,
  'CREATE SCHEMA IF NOT EXISTS drizzle',
  `CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
  `SELECT max(created_at) AS last FROM ${TABLE}`,
].join(';\n');

/** A migration's statements and its bookkeeping row, as SQL text (no parameters in a multi-statement query). */
function migrationSql(m: EmbeddedMigration): string {
  if (!/^[0-9a-f]+$/i.test(m.hash) || !Number.isSafeInteger(m.folderMillis)) {
    throw new Error(`malformed embedded migration ${m.folderMillis}`);
  }
  const statements = m.sql.map((s) => s.trim().replace(/;$/, ''));
  statements.push(`INSERT INTO ${TABLE} (hash, created_at) VALUES ('${m.hash}', ${m.folderMillis})`);
  return statements.join('\n;\n');
}

/** The rows of the last statement's result (a multi-statement query answers one result each). */
function lastRows(result: unknown): Array<Record<string, unknown>> {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  return (last as { rows?: Array<Record<string, unknown>> } | undefined)?.rows ?? [];
}

/** Applies every migration newer than the last applied one; returns how many ran. */
export async function applyPgMigrations(
  client: PgQueryable,
  migrations: readonly EmbeddedMigration[] = MIGRATIONS,
): Promise<number> {
  try {
    const rows = lastRows(await client.query(PREPARE));
    const last = rows[0]?.last === null || rows[0]?.last === undefined ? -1 : Number(rows[0].last);
    const pending = migrations.filter((m) => m.folderMillis > last);
    if (pending.length > 0) await client.query(pending.map(migrationSql).join('\n;\n'));
    await client.query('COMMIT');
    return pending.length;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
