/**
 * exportPg / importPg on a real PostgreSQL cluster against exportStore on real SQLite:
 * values the JSON lines must not bend (integers past 2^53, -0, infinities, 0.1+0.2,
 * blobs, booleans, JSON text with its own spacing and key order, text keys in byte
 * order) make the PostgreSQL export byte-identical to the SQLite one; sequences and
 * examples_fts are rebuilt; a NUL in text is refused (STORE_IMPORT_NUL_IN_TEXT), as
 * is a file cut short, and a refused import leaves the database without a row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportStore, insertObservation, openStore, StoreTransferError, upsertSession } from '../src/index';
import { exportPg, importPg } from '../src/pg/index';
import { describePg, type PgCluster, startCluster } from './_postgres';

async function sqliteExport(path: string): Promise<string> {
  const store = openStore({ path });
  try {
    let text = '';
    await exportStore(store, (line) => {
      text += line;
    });
    return text;
  } finally {
    store.close();
  }
}

async function pgExport(url: string): Promise<string> {
  let text = '';
  await exportPg(url, (line) => {
    text += line;
  });
  return text;
}

async function seed(path: string, content: string): Promise<void> {
  const store = openStore({ path });
  await store.write(async () => {
    upsertSession(store, { id: 'sess-1', ide: 'test', agent: 'claude' }, 1_000);
    await insertObservation(store, { sessionId: 'sess-1', kind: 'foraged-pattern', content, ts: 1_001, tokenCount: 3 });
    await insertObservation(store, { sessionId: 'sess-1', kind: 'note', content: 'second', ts: 1_002, tokenCount: 1 });
  });
  store.close();
  const db = new Database(path);
  const run = (sql: string, ...values: unknown[]) => db.prepare(sql).run(...values);
  run(`UPDATE sessions SET metadata = '{"z": 1,  "a" : [1.0, 2e0], "dup": 1, "dup": 2}' WHERE id = 'sess-1'`);
  run(
    `INSERT INTO iteration_runs (id, name, repo_root, config, max_iterations, state, best_score, pid, pid_started, created_at, updated_at)
     VALUES ('it-1', 'n', '/r', '{}', 3, 'running', ?, ?, ?, 1, 2)`,
    -0,
    9_223_372_036_854_775_807n,
    9_007_199_254_740_993n,
  );
  const iteration = `INSERT INTO iterations (run_id, number, state, score, improved, started_at) VALUES ('it-1', ?, 'finished', ?, ?, 5)`;
  run(iteration, 1, Number.POSITIVE_INFINITY, 1);
  run(iteration, 2, 0.1 + 0.2, 0);
  run(iteration, 3, 1e-310, 1);
  run(
    `INSERT INTO observation_vectors (observation_id, embedder_id, dims, vector) VALUES (1, 'e', 2, ?)`,
    Buffer.from([0, 255, 1, 128]),
  );
  for (const key of ['b', 'B', 'é', 'a', 'Z', 'a b'])
    run(`INSERT INTO context_entries (key, value, version, updated_by, updated_at) VALUES (?, '"v"', 1, 'x', 2)`, key);
  run(
    `INSERT INTO examples (repo_root, example_name, content_hash, first_pattern_id, last_pattern_id, summary, last_scanned_at)
     VALUES ('/r', 'ex-one', 'h', 1, 2, '{}', 3)`,
  );
  db.close();
}

describePg('store transfer on PostgreSQL', () => {
  let dir: string;
  let cluster: PgCluster;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'storage-pg-transfer-'));
    cluster = await startCluster();
  }, 60_000);
  afterAll(() => {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports from PostgreSQL the bytes SQLite exported; sequences and examples_fts are rebuilt', async () => {
    const path = join(dir, 'odd.db');
    await seed(path, 'zebra crossing 🦓 \u2028 e\u0301 end');
    const text = await sqliteExport(path);
    const url = await cluster.database();
    const counts = await importPg(
      url,
      text.split('\n').filter((l) => l !== ''),
    );
    expect(counts.tables.iterations).toBe(3);
    expect(await pgExport(url)).toBe(text);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const fts = await client.query(
        `SELECT rowid::int, example_name FROM examples_fts WHERE content_tsv @@ to_tsquery('english', 'zebras')`,
      );
      expect(fts.rows).toEqual([{ rowid: 1, example_name: 'ex-one' }]);
      const next = await client.query(
        `INSERT INTO observations (session_id, kind, content, ts) VALUES ('sess-1', 'note', 'n', 9) RETURNING id::int`,
      );
      expect(next.rows[0]).toEqual({ id: 3 });
    } finally {
      await client.end();
    }
  });

  it('refuses NUL in text and a file cut short; the database keeps no row', async () => {
    const path = join(dir, 'nul.db');
    await seed(path, 'before \u0000 after');
    const text = (await sqliteExport(path)).split('\n').filter((l) => l !== '');
    const url = await cluster.database();
    const empty = await pgExport(url);
    const refused = importPg(url, text);
    await expect(refused).rejects.toBeInstanceOf(StoreTransferError);
    await expect(refused).rejects.toMatchObject({
      code: 'STORE_IMPORT_NUL_IN_TEXT',
      details: { table: 'observations', column: 'content' },
    });
    const clean = (await sqliteExport(join(dir, 'odd.db'))).split('\n').filter((l) => l !== '');
    await expect(importPg(url, clean.slice(0, -1))).rejects.toMatchObject({ code: 'STORE_IMPORT_TRUNCATED' });
    expect(await pgExport(url)).toBe(empty);
    expect(empty.split('\n').filter((l) => l !== '')).toHaveLength(2);
  });
});
