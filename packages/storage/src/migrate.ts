/**
 * @module migrate
 * Applies drizzle-kit migrations on open, safely when many processes open one fresh
 * database at the same moment. drizzle's own migrator reads the applied list outside
 * its (deferred) transaction, so two processes both decide to migrate and the second
 * fails; here the check and the apply run inside one BEGIN IMMEDIATE transaction.
 * Bookkeeping uses drizzle's `__drizzle_migrations` table, so drizzle-kit stays compatible.
 */
import type Database from 'better-sqlite3';

/** One migration as drizzle-kit wrote it, embedded at build time. */
export interface EmbeddedMigration {
  readonly folderMillis: number;
  readonly hash: string;
  readonly sql: readonly string[];
}

const TABLE = '__drizzle_migrations';

/** Applies every migration newer than the last applied one; returns how many ran. */
export function applyMigrations(sqlite: Database.Database, migrations: readonly EmbeddedMigration[]): number {
  const newest = migrations.at(-1);
  if (newest && lastApplied(sqlite) >= newest.folderMillis) return 0;
  const apply = sqlite.transaction(() => {
    sqlite.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (id INTEGER PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
    const last = lastApplied(sqlite);
    const record = sqlite.prepare(`INSERT INTO ${TABLE} (hash, created_at) VALUES (?, ?)`);
    let ran = 0;
    for (const m of migrations) {
      if (m.folderMillis <= last) continue;
      for (const statement of m.sql) sqlite.exec(statement);
      record.run(m.hash, m.folderMillis);
      ran++;
    }
    return ran;
  });
  return apply.immediate();
}

function lastApplied(sqlite: Database.Database): number {
  const exists = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(TABLE);
  if (!exists) return -1;
  const row = sqlite.prepare(`SELECT max(created_at) AS last FROM ${TABLE}`).get() as { last: number | null };
  return row.last === null ? -1 : Number(row.last);
}
