/**
 * @module pg/store/schema-state
 * STORE_TOO_NEW on PostgreSQL: the database has migrations this build does not know
 * (a newer colony migrated it). Mirrors `schemaState` of _store-state.ts over the
 * PostgreSQL bookkeeping table `drizzle.__drizzle_migrations`; versions are schema
 * versions (the number of migrations applied). Undefined when the schema is this
 * build's or older (then the migrations apply).
 */
import type { StoreRefusal } from '../../_store-state';
import type { EmbeddedMigration } from '../../migrate';
import type { PgQueryable } from '../migrate';

export async function pgSchemaState(
  client: PgQueryable,
  known: readonly EmbeddedMigration[],
  location: string,
): Promise<StoreRefusal | undefined> {
  const { rows } = await client.query(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!rows[0]?.present) return undefined;
  const applied = (
    await client.query('SELECT created_at AS at FROM drizzle.__drizzle_migrations ORDER BY created_at')
  ).rows.map((row) => Number(row.at));
  const knownMillis = new Set(known.map((m) => m.folderMillis));
  const newest = known.at(-1)?.folderMillis ?? -1;
  if (!applied.some((at) => at > newest && !knownMillis.has(at))) return undefined;
  const storeVersion = applied.length;
  const buildVersion = known.length;
  return {
    code: 'STORE_TOO_NEW',
    message: `the store ${location} was written by a newer colony (store schema version ${storeVersion}, this colony's schema version ${buildVersion}): reads are served, writes are refused. Upgrade colony to write to it.`,
    details: {
      db_path: location,
      store_schema_version: storeVersion,
      colony_schema_version: buildVersion,
      store_newest_migration: applied.at(-1),
      colony_newest_migration: newest,
    },
  };
}
