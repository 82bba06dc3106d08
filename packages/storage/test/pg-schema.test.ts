/**
 * PostgreSQL schema: the migrations drizzle-kit wrote from the one schema definition
 * apply on an empty database (once, also when opened again), and every table and column
 * of a real migrated SQLite store exists on PostgreSQL with the same nullability.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { renderMigrationsModule } from '../../../scripts/embed-migrations.mjs';
import { MIGRATIONS } from '../src/_migrations.generated';
import { applyMigrations } from '../src/migrate';
import { openPgDatabase } from '../src/pg/index';
import { tempDir } from './_matrix';
import { describePg, type PgCluster, startCluster } from './_postgres';

it('the embedded PostgreSQL migrations match drizzle-pg/ (not stale)', () => {
  const committed = readFileSync(join(import.meta.dirname, '..', 'src', 'pg', '_migrations.generated.ts'), 'utf8');
  expect(committed).toBe(renderMigrationsModule('drizzle-pg'));
});

/** SQLite tables that are FTS5 indexes (or their shadow tables): on PostgreSQL a tsvector column. */
const FTS_ON_PG: Record<string, { table: string; column: string }> = {
  observations_fts: { table: 'observations', column: 'content_tsv' },
  examples_fts: { table: 'examples_fts', column: 'content_tsv' },
};

function sqliteColumns(): Map<string, Map<string, boolean>> {
  const dir = tempDir();
  const db = new Database(join(dir, 'colony.db'));
  try {
    applyMigrations(db, MIGRATIONS);
    const tables = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != '__drizzle_migrations'`,
      )
      .all() as Array<{ name: string }>;
    const out = new Map<string, Map<string, boolean>>();
    for (const { name } of tables) {
      // FTS5's shadow tables, and SQLite's batch mark (PostgreSQL indexes each row with it).
      if (/_fts_(data|idx|content|docsize|config|indexed)$/.test(name)) continue;
      const cols = db.prepare(`SELECT name, "notnull" AS nn, pk FROM pragma_table_info(?)`).all(name) as Array<{
        name: string;
        nn: number;
        pk: number;
      }>;
      out.set(name, new Map(cols.map((c) => [c.name, c.nn === 1 || c.pk > 0])));
    }
    return out;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describePg('PostgreSQL schema', () => {
  let cluster: PgCluster;
  let url: string;
  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.database();
  });
  afterAll(() => cluster?.stop());

  it('migrates an empty database once; opening again applies nothing', async () => {
    const first = await openPgDatabase(url);
    expect(first.migrated).toBeGreaterThanOrEqual(1);
    await first.close();
    const again = await openPgDatabase(url);
    expect(again.migrated).toBe(0);
    await again.close();
  });

  it('has every table and column of a migrated SQLite store, with the same nullability', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
      );
      const onPg = new Map<string, Map<string, boolean>>();
      for (const r of rows) {
        if (!onPg.has(r.table_name)) onPg.set(r.table_name, new Map());
        onPg.get(r.table_name)?.set(r.column_name, r.is_nullable === 'NO');
      }
      const sqlite = sqliteColumns();
      expect(sqlite.size).toBeGreaterThan(20);
      for (const [table, columns] of sqlite) {
        const fts = FTS_ON_PG[table];
        if (fts) {
          expect(onPg.get(fts.table)?.has(fts.column), `${table} -> ${fts.table}.${fts.column}`).toBe(true);
          if (fts.table === table)
            for (const c of columns.keys()) expect(onPg.get(table)?.has(c), `${table}.${c}`).toBe(true);
          continue;
        }
        const pgColumns = onPg.get(table);
        expect(pgColumns, `table ${table} on PostgreSQL`).toBeDefined();
        for (const [column, notNull] of columns) {
          expect(pgColumns?.get(column), `${table}.${column} NOT NULL=${notNull}`).toBe(notNull);
        }
      }
      for (const table of onPg.keys()) expect(sqlite.has(table), `PostgreSQL table ${table} on SQLite`).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('searches observation text through the tsvector column and its GIN index', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`INSERT INTO sessions (id, started_at, last_heartbeat_at) VALUES ('s1', 1, 1)`);
      await client.query(
        `INSERT INTO observations (session_id, kind, content, ts) VALUES ('s1', 'note', 'Running the migrations', 1), ('s1', 'note', 'unrelated', 2)`,
      );
      const hit = await client.query(
        `SELECT content FROM observations WHERE content_tsv @@ websearch_to_tsquery('english', 'migration run')`,
      );
      expect(hit.rows.map((r) => r.content)).toEqual(['Running the migrations']);
      const gin = await client.query(
        `SELECT indexdef FROM pg_indexes WHERE indexname = 'observations_content_tsv_idx'`,
      );
      expect(gin.rows[0]?.indexdef).toMatch(/USING gin \(content_tsv\)/);
    } finally {
      await client.end();
    }
  });
});
