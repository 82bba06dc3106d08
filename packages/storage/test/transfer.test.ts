/**
 * exportStore / importStore on real SQLite files: every table of the schema is covered
 * (a new table that the export would miss fails here), values the JSON lines must not
 * bend (integers past 2^53, -0, infinities, blobs, NULL, any Unicode) come back with
 * their storage class, two exports of the same data are byte-identical, and bad input
 * is refused with a stable code while the target keeps nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  exportStore,
  importStore,
  insertObservation,
  openStore,
  type Store,
  StoreTransferError,
  transferTables,
  upsertSession,
} from '../src/index';
import { REBUILT_INDEXES } from '../src/transfer/_rebuild';

let dir: string;
const opened: Store[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'storage-transfer-'));
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(name: string): Store {
  const store = openStore({ path: join(dir, name) });
  opened.push(store);
  return store;
}

async function exportText(store: Store): Promise<string> {
  let text = '';
  await exportStore(store, (line) => {
    text += line;
  });
  return text;
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

async function seed(store: Store): Promise<void> {
  await store.write(async () => {
    upsertSession(store, { id: 'sess-1', ide: 'test', agent: 'claude' }, 1_000);
    await insertObservation(store, {
      sessionId: 'sess-1',
      kind: 'note',
      content: 'zebra crossing 🦓 \u2028 e\u0301 \u0000 end',
      ts: 1_001,
      tokenCount: 3,
    });
    await insertObservation(store, { sessionId: 'sess-1', kind: 'note', content: 'second', ts: 1_002, tokenCount: 1 });
  });
}

/** Values drizzle's own writers never make, written with SQL so the export meets them. */
function seedOddValues(path: string): void {
  const db = new Database(path);
  db.prepare(
    `INSERT INTO iteration_runs (id, name, repo_root, config, max_iterations, state, best_score, pid, pid_started, created_at, updated_at)
     VALUES ('it-1', 'n', '/r', '{}', 3, 'running', ?, ?, ?, 1, 2)`,
  ).run(-0, 9_223_372_036_854_775_807n, 9_007_199_254_740_993n);
  db.prepare(
    `INSERT INTO iterations (run_id, number, state, score, started_at) VALUES ('it-1', 1, 'finished', ?, 5)`,
  ).run(Number.POSITIVE_INFINITY);
  db.prepare(
    `INSERT INTO iterations (run_id, number, state, score, started_at) VALUES ('it-1', 2, 'finished', ?, 5)`,
  ).run(0.1 + 0.2);
  db.prepare(`INSERT INTO observation_vectors (observation_id, embedder_id, dims, vector) VALUES (1, 'e', 2, ?)`).run(
    Buffer.from([0, 255, 1, 128, 7, 0, 0, 63]),
  );
  db.prepare(`DELETE FROM mcp_metrics`).run();
  db.close();
}

describe('exportStore', () => {
  it('covers every table of the store: what it leaves out is only bookkeeping and rebuilt indexes', async () => {
    const store = open('a.db');
    const db = new Database(join(dir, 'a.db'), { readonly: true });
    const all = db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .all() as Array<{ name: string; sql: string }>;
    db.close();
    const virtual = all.filter((t) => /CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
    expect([...virtual].sort()).toEqual([...REBUILT_INDEXES].sort());
    const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
    const plain = all
      .map((t) => t.name)
      .filter((n) => !virtual.includes(n) && !shadow(n) && n !== '__drizzle_migrations');
    expect(
      transferTables()
        .map((t) => t.name)
        .sort(),
    ).toEqual(plain.sort());
    const header = JSON.parse(lines(await exportText(store))[0] ?? '{}');
    expect(header.tables.map((t: { name: string }) => t.name).sort()).toEqual(plain.sort());
  });

  it('reads one snapshot: a write committed by another connection mid-export is not in it', async () => {
    const store = open('a.db');
    await seed(store);
    const other = open('a.db');
    let text = '';
    await exportStore(store, async (line) => {
      if (text === '') await other.write(() => upsertSession(other, { id: 'late', ide: 'test' }, 7));
      text += line;
    });
    expect(text).not.toContain('"late"');
    expect(await exportText(store)).toContain('"id":"late"');
    expect(JSON.parse(lines(text).at(-1) ?? '{}').end.counts.sessions).toBe(1);
  });

  it('lists tables after the tables they reference', () => {
    const order = transferTables().map((t) => t.name);
    for (const [at, table] of transferTables().entries()) {
      for (const ref of table.references) expect(order.indexOf(ref)).toBeLessThan(at);
    }
  });
});

describe('importStore', () => {
  it('round-trips values exactly: a second export is byte-identical and storage classes are kept', async () => {
    const source = open('a.db');
    await seed(source);
    seedOddValues(join(dir, 'a.db'));
    const first = await exportText(source);
    expect(first).toContain('{"$int":"9223372036854775807"}');
    expect(first).toContain('{"$real":"Infinity"}');
    expect(first).toContain('"$blob":"AP8BgAcAAD8="');
    const target = open('b.db');
    const counts = await importStore(target, lines(first));
    expect(counts.tables.observations).toBe(2);
    expect(await exportText(target)).toBe(first);
    const db = new Database(join(dir, 'b.db'), { readonly: true });
    const run = db
      .prepare(`SELECT typeof(best_score) AS t, pid_started FROM iteration_runs`)
      .safeIntegers(true)
      .get() as { t: string; pid_started: bigint };
    expect(run).toEqual({ t: 'real', pid_started: 9_007_199_254_740_993n });
    const hits = db.prepare(`SELECT rowid FROM observations_fts WHERE observations_fts MATCH 'zebra'`).all();
    db.close();
    expect(hits).toEqual([{ rowid: 1 }]);
  });

  it('keeps AUTOINCREMENT counters, so an id handed out before the export is not handed out again', async () => {
    const source = open('a.db');
    await seed(source);
    const db = new Database(join(dir, 'a.db'));
    db.prepare(`DELETE FROM observations WHERE id = 2`).run();
    db.close();
    const target = open('b.db');
    await importStore(target, lines(await exportText(source)));
    const id = await target.write(() =>
      insertObservation(target, { sessionId: 'sess-1', kind: 'note', content: 'x', ts: 9, tokenCount: 1 }),
    );
    expect(id).toBe(3);
  });

  it('imports a larger store through full batches and the rest, in order', async () => {
    const source = open('a.db');
    await seed(source);
    await source.write(async () => {
      for (let i = 0; i < 1_234; i++) {
        await insertObservation(source, {
          sessionId: 'sess-1',
          kind: 'note',
          content: `row ${i} lorem`,
          ts: 2_000 + i,
          tokenCount: 2,
        });
      }
    });
    const first = await exportText(source);
    const target = open('b.db');
    expect((await importStore(target, lines(first))).tables.observations).toBe(1_236);
    expect(await exportText(target)).toBe(first);
  });

  const refusals: Array<[string, (text: string) => string[], string]> = [
    ['a truncated file', (t) => lines(t).slice(0, -1), 'STORE_IMPORT_TRUNCATED'],
    [
      'a file cut inside a line',
      (t) => [...lines(t).slice(0, 2), (lines(t)[2] ?? '').slice(0, 10)],
      'STORE_IMPORT_TRUNCATED',
    ],
    [
      'a wrong format version',
      (t) => [(lines(t)[0] ?? '').replace('"version":1', '"version":99'), ...lines(t).slice(1)],
      'STORE_IMPORT_VERSION',
    ],
    ['not an export', () => ['{"hello":1}'], 'STORE_IMPORT_FORMAT'],
    [
      'a newer schema',
      (t) => [(lines(t)[0] ?? '').replace(/"schema":\d+/, '"schema":999'), ...lines(t).slice(1)],
      'STORE_IMPORT_SCHEMA_TOO_NEW',
    ],
    [
      'a malformed line',
      (t) => [...lines(t).slice(0, 2), '{"t":"sessions","r":', ...lines(t).slice(2)],
      'STORE_IMPORT_MALFORMED',
    ],
    ['an unknown column', (t) => lines(t).map((l) => l.replace('"ide":', '"nope":')), 'STORE_IMPORT_MALFORMED'],
    [
      'a bad sequence',
      (t) => [(lines(t)[0] ?? '').replace(/"sequences":\{/, '"sequences":{"nope":1,'), ...lines(t).slice(1)],
      'STORE_IMPORT_MALFORMED',
    ],
    ['a dropped row', (t) => lines(t).filter((l) => !l.includes('"second"')), 'STORE_IMPORT_MALFORMED'],
  ];

  for (const [what, mangle, code] of refusals) {
    it(`refuses ${what} with ${code}, writing nothing`, async () => {
      const source = open('a.db');
      await seed(source);
      const target = open('b.db');
      const before = await exportText(target);
      await expect(importStore(target, mangle(await exportText(source)))).rejects.toThrowError(
        expect.objectContaining({ code }) as unknown as Error,
      );
      expect(await exportText(target)).toBe(before);
    });
  }

  it('refuses a store that already holds rows with STORE_IMPORT_NOT_EMPTY, leaving it as it was', async () => {
    const source = open('a.db');
    await seed(source);
    const target = open('b.db');
    await target.write(() => upsertSession(target, { id: 'other', ide: 'test' }, 5));
    const before = await exportText(target);
    const error = await (async () => {
      try {
        await importStore(target, lines(await exportText(source)));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StoreTransferError);
    expect((error as StoreTransferError).code).toBe('STORE_IMPORT_NOT_EMPTY');
    expect(await exportText(target)).toBe(before);
  });
});
