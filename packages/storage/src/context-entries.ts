/**
 * @module context-entries
 * The shared context of seed 000: versioned JSON values by key. Every write is one
 * statement (an upsert, or an UPDATE guarded by the expected version), so a
 * conditional write is decided by SQLite's write lock, whichever process runs it.
 * Values stay JSON text here; callers parse what they read.
 */
import { type Store, statement } from './_store';

export interface ContextEntry {
  readonly key: string;
  /** JSON text. */
  readonly value: string;
  readonly version: number;
  readonly updatedBy: string;
  readonly updatedAt: number;
}

export interface ContextWrite {
  readonly key: string;
  /** JSON text. */
  readonly value: string;
  readonly agent: string;
  readonly now: number;
}

const UPSERT_SQL = `INSERT INTO context_entries (key, value, version, updated_by, updated_at) VALUES (?, ?, 1, ?, ?)
  ON CONFLICT(key) DO UPDATE SET value = excluded.value, version = version + 1,
  updated_by = excluded.updated_by, updated_at = excluded.updated_at RETURNING version`;
const INSERT_NEW_SQL = `INSERT INTO context_entries (key, value, version, updated_by, updated_at) VALUES (?, ?, 1, ?, ?)
  ON CONFLICT(key) DO NOTHING RETURNING version`;
const UPDATE_IF_SQL = `UPDATE context_entries SET value = ?, version = version + 1, updated_by = ?, updated_at = ?
  WHERE key = ? AND version = ? RETURNING version`;
const GET_SQL = `SELECT key, value, version, updated_by AS updatedBy, updated_at AS updatedAt
  FROM context_entries WHERE key = ?`;
const VERSION_SQL = 'SELECT version FROM context_entries WHERE key = ?';

/** Writes the value unconditionally; returns the new version. */
export function setContext(store: Store, w: ContextWrite): number {
  const row = statement(store, UPSERT_SQL).get(w.key, w.value, w.agent, w.now) as { version: number };
  return row.version;
}

/**
 * Writes only when the key's current version is `expected` (0: the key is absent).
 * Returns the new version, or undefined when the condition failed.
 */
export function setContextIfVersion(store: Store, w: ContextWrite, expected: number): number | undefined {
  const row =
    expected === 0
      ? statement(store, INSERT_NEW_SQL).get(w.key, w.value, w.agent, w.now)
      : statement(store, UPDATE_IF_SQL).get(w.value, w.agent, w.now, w.key, expected);
  return (row as { version: number } | undefined)?.version;
}

export function getContext(store: Store, key: string): ContextEntry | undefined {
  return statement(store, GET_SQL).get(key) as ContextEntry | undefined;
}

/** The current version of a key, 0 when absent. */
export function contextVersion(store: Store, key: string): number {
  return (statement(store, VERSION_SQL).get(key) as { version: number } | undefined)?.version ?? 0;
}

/** Keys starting with `prefix`, sorted (byte order), at most `limit`. */
export function listContextKeys(store: Store, prefix: string, limit: number): string[] {
  // GLOB is case-sensitive and uses the primary key for a literal prefix; its own
  // wildcards in the prefix are escaped as one-character classes.
  const pattern = `${prefix.replace(/[*?[]/g, (c) => `[${c}]`)}*`;
  const rows = statement(store, 'SELECT key FROM context_entries WHERE key GLOB ? ORDER BY key LIMIT ?').all(
    pattern,
    limit,
  ) as Array<{ key: string }>;
  return rows.map((r) => r.key);
}
