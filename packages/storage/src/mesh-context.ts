/**
 * @module mesh-context
 * The context mesh of seed 001: JSON values by key, each with an owner, an optional
 * access list and an optional expiry. Rows past `expires_at` are absent to every
 * query that takes `now`; `purgeExpiredMeshEntries` deletes them (writers call it).
 * Run reads that decide a write, and the write, inside one `store.write`.
 */
import { type Store, statement } from './_store';

export interface MeshEntry {
  readonly key: string;
  /** JSON text. */
  readonly value: string;
  readonly owner: string;
  /** Agents allowed besides the owner; null: everyone. */
  readonly subscribers: readonly string[] | null;
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number | null;
}

export interface MeshEntryWrite {
  readonly key: string;
  /** JSON text. */
  readonly value: string;
  readonly owner: string;
  readonly subscribers: readonly string[] | null;
  readonly version: number;
  readonly now: number;
  readonly expiresAt: number | null;
}

interface Row extends Omit<MeshEntry, 'subscribers'> {
  readonly subscribers: string | null;
}

const COLUMNS = `key, value, owner, subscribers, version, created_at AS createdAt, updated_at AS updatedAt,
  expires_at AS expiresAt`;
const LIVE = '(expires_at IS NULL OR expires_at > @now)';
/** Who may read a row: everyone without an access list, else its owner and subscribers. */
const READABLE_BY = `(subscribers IS NULL OR owner = @agent
  OR EXISTS (SELECT 1 FROM json_each(mesh_context.subscribers) WHERE value = @agent))`;

/** The live entry under `key` at `now`, whoever may read it. */
export function getMeshEntry(store: Store, key: string, now: number): MeshEntry | undefined {
  const row = statement(store, `SELECT ${COLUMNS} FROM mesh_context WHERE key = @key AND ${LIVE}`).get({ key, now }) as
    | Row
    | undefined;
  return row && toEntry(row);
}

/** Writes an entry whole (insert or replace). */
export function putMeshEntry(store: Store, w: MeshEntryWrite): void {
  statement(
    store,
    `INSERT INTO mesh_context (key, value, owner, subscribers, version, created_at, updated_at, expires_at)
     VALUES (@key, @value, @owner, @subscribers, @version, @now, @now, @expiresAt)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, owner = excluded.owner,
       subscribers = excluded.subscribers, version = excluded.version,
       created_at = CASE WHEN excluded.version = 1 THEN excluded.created_at ELSE mesh_context.created_at END,
       updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
  ).run({ ...w, subscribers: w.subscribers === null ? null : JSON.stringify(w.subscribers) });
}

export function deleteMeshEntry(store: Store, key: string): boolean {
  return statement(store, 'DELETE FROM mesh_context WHERE key = ?').run(key).changes > 0;
}

/** Deletes every entry whose expiry has passed; returns how many. */
export function purgeExpiredMeshEntries(store: Store, now: number): number {
  return statement(store, 'DELETE FROM mesh_context WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now).changes;
}

export interface MeshKeyFilter {
  /** Only keys this agent may read. */
  readonly agent: string;
  readonly now: number;
  /** A SQLite GLOB pattern (case-sensitive `*`, `?`, `[...]`, `[^...]`); default every key. */
  readonly glob?: string;
  readonly limit: number;
}

/** Live keys an agent may read, sorted (byte order), at most `limit`. */
export function listMeshKeys(store: Store, filter: MeshKeyFilter): string[] {
  const rows = statement(
    store,
    `SELECT key FROM mesh_context WHERE key GLOB @glob AND ${LIVE} AND ${READABLE_BY} ORDER BY key LIMIT @limit`,
  ).all({ agent: filter.agent, now: filter.now, glob: filter.glob ?? '*', limit: filter.limit }) as Array<{
    key: string;
  }>;
  return rows.map((r) => r.key);
}

/** Rows in the table, expired ones included (for tests and status). */
export function countMeshEntries(store: Store): number {
  return (statement(store, 'SELECT COUNT(*) AS n FROM mesh_context').get() as { n: number }).n;
}

function toEntry(row: Row): MeshEntry {
  return { ...row, subscribers: row.subscribers === null ? null : (JSON.parse(row.subscribers) as string[]) };
}
