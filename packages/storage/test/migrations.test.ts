/**
 * Migrations: embedded at build time, applied on open inside one BEGIN IMMEDIATE
 * transaction, and never re-applied.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { renderMigrationsModule } from '../../../scripts/embed-migrations.mjs';
import { MIGRATIONS } from '../src/_migrations.generated';
import { handleOf } from '../src/_store';
import { openStore } from '../src/index';
import { applyMigrations } from '../src/migrate';
import { describeMatrix, tempDir } from './_matrix';

const TABLES = ['sessions', 'tasks', 'task_participants', 'observations', 'idempotency_keys', 'mcp_metrics'];

function objectsOf(sqlite: Database.Database): Map<string, string> {
  const rows = sqlite.prepare(`SELECT name, type FROM sqlite_master`).all() as Array<{ name: string; type: string }>;
  return new Map(rows.map((r) => [r.name, r.type]));
}

describe('embedded migrations', () => {
  it('match what scripts/embed-migrations.mjs renders from the drizzle folder (not stale)', () => {
    const committed = readFileSync(join(import.meta.dirname, '..', 'src', '_migrations.generated.ts'), 'utf8');
    expect(committed).toBe(renderMigrationsModule());
  });

  it('are ordered by folderMillis with distinct hashes', () => {
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(2);
    const millis = MIGRATIONS.map((m) => m.folderMillis);
    expect([...millis].sort((a, b) => a - b)).toEqual(millis);
    expect(new Set(MIGRATIONS.map((m) => m.hash)).size).toBe(MIGRATIONS.length);
  });
});

describe('applyMigrations', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applies every migration on a fresh database and none when run again', () => {
    const sqlite = new Database(join(dir, 'raw.db'));
    try {
      expect(applyMigrations(sqlite, MIGRATIONS)).toBe(MIGRATIONS.length);
      expect(applyMigrations(sqlite, MIGRATIONS)).toBe(0);
      const applied = sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number };
      expect(applied.n).toBe(MIGRATIONS.length);
    } finally {
      sqlite.close();
    }
  });

  it('applies only migrations newer than the last applied one', () => {
    const sqlite = new Database(':memory:');
    try {
      expect(applyMigrations(sqlite, MIGRATIONS.slice(0, 1))).toBe(1);
      expect(objectsOf(sqlite).has('observations_fts')).toBe(false);
      expect(applyMigrations(sqlite, MIGRATIONS)).toBe(MIGRATIONS.length - 1);
      expect(objectsOf(sqlite).get('observations_fts')).toBe('table');
    } finally {
      sqlite.close();
    }
  });

  it('0014 (batched FTS) marks every row of an existing store indexed, and its triggers keep the index whole', () => {
    const sqlite = new Database(':memory:');
    try {
      const before = MIGRATIONS.findIndex((m) => m.sql.some((s) => s.includes('observations_fts_indexed')));
      expect(before).toBeGreaterThan(0);
      applyMigrations(sqlite, MIGRATIONS.slice(0, before));
      sqlite.prepare(`INSERT INTO sessions (id, ide, started_at, last_heartbeat_at) VALUES ('s', 'x', 0, 0)`).run();
      const insert = sqlite.prepare(
        `INSERT INTO observations (session_id, kind, content, ts, token_count) VALUES ('s', 'note', ?, 0, 1)`,
      );
      // As the insert path wrote them before 0014: the row and its index row in one transaction.
      for (const text of ['old pelicans', 'old herons']) {
        const id = Number(insert.run(text).lastInsertRowid);
        sqlite.prepare('INSERT INTO observations_fts (rowid, content) VALUES (?, ?)').run(id, text);
      }
      expect(applyMigrations(sqlite, MIGRATIONS)).toBe(MIGRATIONS.length - before);
      expect(sqlite.prepare('SELECT through FROM observations_fts_indexed').get()).toEqual({ through: 2 });
      sqlite.prepare('UPDATE observations SET content = ? WHERE id = 1').run('old flamingos');
      sqlite.prepare('DELETE FROM observations WHERE id = 2').run();
      sqlite.prepare(`INSERT INTO observations_fts (observations_fts) VALUES ('integrity-check')`).run();
      const match = (term: string) =>
        sqlite.prepare('SELECT rowid FROM observations_fts WHERE observations_fts MATCH ?').all(term);
      expect(match('flamingos')).toEqual([{ rowid: 1 }]);
      expect(match('pelicans')).toEqual([]);
      expect(match('herons')).toEqual([]);
    } finally {
      sqlite.close();
    }
  });

  it('rolls back a failing migration completely', () => {
    const sqlite = new Database(':memory:');
    try {
      const broken = [{ folderMillis: 1, hash: 'x', sql: ['CREATE TABLE ok_table (id INTEGER)', 'NOT SQL AT ALL'] }];
      expect(() => applyMigrations(sqlite, broken)).toThrow();
      const objects = objectsOf(sqlite);
      expect(objects.has('ok_table')).toBe(false);
      expect(objects.has('__drizzle_migrations')).toBe(false);
    } finally {
      sqlite.close();
    }
  });
});

describeMatrix('openStore schema', ({ open }) => {
  it('creates every table, the FTS index and its delete/update triggers on a fresh open', () => {
    const { sqlite } = handleOf(open());
    const objects = objectsOf(sqlite);
    for (const table of TABLES) expect(objects.get(table), table).toBe('table');
    expect(objects.get('observations_fts')).toBe('table');
    for (const trigger of ['observations_fts_ad', 'observations_fts_au']) {
      expect(objects.get(trigger), trigger).toBe('trigger');
    }
    // Inserts are indexed by insertObservation itself (migration 0003), not by trigger.
    expect(objects.get('observations_fts_ai')).toBeUndefined();
    const fts = sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = 'observations_fts'`).get() as {
      sql: string;
    };
    expect(fts.sql).toMatch(/USING fts5/i);
    expect(applyMigrations(sqlite, MIGRATIONS)).toBe(0);
  });
});

describe('reopening an on-disk store', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs no migration again and keeps the data', () => {
    const path = join(dir, 'nested', 'folder', 'colony.db');
    const first = openStore({ path });
    first.close();
    const second = openStore({ path });
    second.close();
    const sqlite = new Database(path);
    try {
      const applied = sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number };
      expect(applied.n).toBe(MIGRATIONS.length);
      expect(applyMigrations(sqlite, MIGRATIONS)).toBe(0);
    } finally {
      sqlite.close();
    }
  });
});
