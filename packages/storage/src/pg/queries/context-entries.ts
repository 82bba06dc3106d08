/**
 * @module pg/queries/context-entries
 * The shared context (`src/context-entries.ts`) on PostgreSQL: every write is one
 * statement (an upsert, or an UPDATE guarded by the expected version), so a conditional
 * write is decided by the row lock, never by a read first. Prefix listing uses
 * `starts_with` and byte order (`COLLATE "C"`), as SQLite's GLOB and BINARY order.
 */
import type { ContextEntry, ContextWrite } from '../../context-entries';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';

const COLUMNS = '(key, value, version, updated_by, updated_at) VALUES ($1, $2, 1, $3, $4)';
const UPSERT_SQL = `INSERT INTO context_entries ${COLUMNS}
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = context_entries.version + 1,
  updated_by = excluded.updated_by, updated_at = excluded.updated_at RETURNING version`;
const INSERT_NEW_SQL = `INSERT INTO context_entries ${COLUMNS} ON CONFLICT (key) DO NOTHING RETURNING version`;
const UPDATE_IF_SQL = `UPDATE context_entries SET value = $1, version = version + 1, updated_by = $2, updated_at = $3
  WHERE key = $4 AND version = $5 RETURNING version`;

const versionOf = (rows: Array<Record<string, unknown>>): number | undefined =>
  rows[0] === undefined ? undefined : Number(rows[0]?.version);

/** Writes the value unconditionally; returns the new version. */
export async function setContext(store: PgStore, w: ContextWrite): Promise<number> {
  const { rows } = await pgClient(store).query(UPSERT_SQL, [w.key, w.value, w.agent, w.now]);
  return versionOf(rows) as number;
}

/** Writes only when the key's version is `expected` (0: absent); the new version, or undefined. */
export async function setContextIfVersion(
  store: PgStore,
  w: ContextWrite,
  expected: number,
): Promise<number | undefined> {
  const { rows } =
    expected === 0
      ? await pgClient(store).query(INSERT_NEW_SQL, [w.key, w.value, w.agent, w.now])
      : await pgClient(store).query(UPDATE_IF_SQL, [w.value, w.agent, w.now, w.key, expected]);
  return versionOf(rows);
}

export async function getContext(store: PgStore, key: string): Promise<ContextEntry | undefined> {
  const { rows } = await pgClient(store).query(
    `SELECT key, value, version, updated_by AS "updatedBy", updated_at AS "updatedAt" FROM context_entries WHERE key = $1`,
    [key],
  );
  return rows[0] ? numbered<ContextEntry>(rows[0], ['version', 'updatedAt']) : undefined;
}

/** The current version of a key, 0 when absent. */
export async function contextVersion(store: PgStore, key: string): Promise<number> {
  const { rows } = await pgClient(store).query('SELECT version FROM context_entries WHERE key = $1', [key]);
  return versionOf(rows) ?? 0;
}

/** Keys starting with `prefix`, in byte order, at most `limit`. */
export async function listContextKeys(store: PgStore, prefix: string, limit: number): Promise<string[]> {
  const { rows } = await pgClient(store).query(
    'SELECT key FROM context_entries WHERE starts_with(key, $1) ORDER BY key COLLATE "C" LIMIT $2',
    [prefix, limit],
  );
  return rows.map((r) => r.key as string);
}
