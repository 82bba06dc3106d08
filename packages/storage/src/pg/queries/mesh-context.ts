/**
 * @module pg/queries/mesh-context
 * The context mesh of `src/mesh-context.ts` on PostgreSQL. Keys sort in byte order as
 * on SQLite (`COLLATE "C"`, whatever the database's collation); the GLOB filter becomes
 * an anchored regular expression (`_glob.ts`); the access list is JSON text read with
 * `jsonb_array_elements_text` where SQLite used `json_each`.
 */
import type { MeshEntry, MeshEntryWrite, MeshKeyFilter } from '../../mesh-context';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { execute } from './_common';
import { globToRegex } from './_glob';

const COLUMNS = `key, value, owner, subscribers, version, created_at AS "createdAt", updated_at AS "updatedAt",
  expires_at AS "expiresAt"`;
const READABLE_BY = `(subscribers IS NULL OR owner = $1
  OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(mesh_context.subscribers::jsonb) e WHERE e = $1))`;

/** The live entry under `key` at `now`, whoever may read it. */
export async function getMeshEntry(store: PgStore, key: string, now: number): Promise<MeshEntry | undefined> {
  const { rows } = await pgClient(store).query(
    `SELECT ${COLUMNS} FROM mesh_context WHERE key = $1 AND (expires_at IS NULL OR expires_at > $2)`,
    [key, now],
  );
  const row = rows[0] as Record<string, unknown> | undefined;
  return row && toEntry(row);
}

/** Writes an entry whole (insert or replace). */
export async function putMeshEntry(store: PgStore, w: MeshEntryWrite): Promise<void> {
  await pgClient(store).query(
    `INSERT INTO mesh_context (key, value, owner, subscribers, version, created_at, updated_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, owner = excluded.owner,
       subscribers = excluded.subscribers, version = excluded.version,
       created_at = CASE WHEN excluded.version = 1 THEN excluded.created_at ELSE mesh_context.created_at END,
       updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
    [
      w.key,
      w.value,
      w.owner,
      w.subscribers === null ? null : JSON.stringify(w.subscribers),
      w.version,
      w.now,
      w.expiresAt,
    ],
  );
}

export async function deleteMeshEntry(store: PgStore, key: string): Promise<boolean> {
  return (await execute(store, 'DELETE FROM mesh_context WHERE key = $1', [key])) > 0;
}

/** Deletes every entry whose expiry has passed; returns how many. */
export async function purgeExpiredMeshEntries(store: PgStore, now: number): Promise<number> {
  const sql = 'DELETE FROM mesh_context WHERE expires_at IS NOT NULL AND expires_at <= $1';
  return await execute(store, sql, [now]);
}

/** Live keys an agent may read, sorted (byte order), at most `limit`. */
export async function listMeshKeys(store: PgStore, filter: MeshKeyFilter): Promise<string[]> {
  const pattern = globToRegex(filter.glob ?? '*');
  if (pattern === undefined) return [];
  const { rows } = await pgClient(store).query(
    `SELECT key FROM mesh_context WHERE key ~ $2 AND (expires_at IS NULL OR expires_at > $3) AND ${READABLE_BY}
     ORDER BY key COLLATE "C" LIMIT $4`,
    [filter.agent, pattern, filter.now, filter.limit],
  );
  return rows.map((r) => r.key as string);
}

/** Rows in the table, expired ones included (for tests and status). */
export async function countMeshEntries(store: PgStore): Promise<number> {
  const { rows } = await pgClient(store).query('SELECT COUNT(*) AS n FROM mesh_context');
  return Number(rows[0]?.n);
}

function toEntry(row: Record<string, unknown>): MeshEntry {
  const subscribers = row.subscribers as string | null;
  const num = (v: unknown) => (v === null ? null : Number(v));
  return {
    key: row.key as string,
    value: row.value as string,
    owner: row.owner as string,
    subscribers: subscribers === null ? null : (JSON.parse(subscribers) as string[]),
    version: Number(row.version),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
    expiresAt: num(row.expiresAt),
  };
}
