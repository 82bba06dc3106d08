/**
 * @module pg/store/schema-state
 * STORE_TOO_NEW on PostgreSQL: the database has migrations this build does not know
 * (a newer colony migrated it). Reads what `schemaState` of _store-state.ts reads over the
 * PostgreSQL bookkeeping table `drizzle.__drizzle_migrations`; versions are schema
 * versions (the number of migrations applied); the refusal is `tooNewRefusal`'s. Undefined when the schema is this
 * build's or older (then the migrations apply).
 */
import { type StoreRefusal, tooNewRefusal } from '../../_store-state';
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
  return tooNewRefusal(applied, known, location);
}
