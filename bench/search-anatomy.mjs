#!/usr/bin/env node
/**
 * Where search time goes, on a corpus store kept by `node bench/run.mjs --keep`:
 *
 *   node bench/search-anatomy.mjs /tmp/colony-bench-XXXX/corpus.db [queries]
 *
 * Replays the bench queries against the FTS5 index directly (read-only) and prints,
 * for the query shape colony uses today and for alternatives:
 *   - ranked:  what keywordSearch does (BM25 `ORDER BY rank LIMIT 10`, all terms, then
 *              any term when fewer than 10 match every term)
 *   - unranked: the same MATCH without ranking (a floor: what reading the index costs)
 *   - pool-N:  BM25 over only the newest N matches (recency-bounded ranking)
 *   - pruned:  terms matching more than 5% of the corpus dropped while a rarer term
 *              remains (a dynamic stop-word list from an fts5vocab table)
 * and the ranked latency by how many rows the query makes FTS5 score.
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildVocabulary, makeQueries } from './lib/corpus.mjs';
import { fmtMs, renderTable, summarize } from './lib/util.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [dbPath, countArg] = process.argv.slice(2).filter((a) => a !== '--');
if (!dbPath) {
  process.stderr.write('usage: node bench/search-anatomy.mjs <corpus.db> [queries]\n');
  process.exit(2);
}
const Database = createRequire(join(ROOT, 'packages/storage/package.json'))('better-sqlite3');
const { ftsMatchExpression } = await import(pathToFileURL(join(ROOT, 'packages/storage/dist/index.js')).href);

const db = new Database(dbPath, { readonly: true });
const total = db.prepare('SELECT count(*) AS n FROM observations').get().n;
db.exec(`CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, 'observations_fts', 'row')`);
const dfStmt = db.prepare('SELECT doc FROM temp.vocab WHERE term = ?');
const porter = db.prepare(`SELECT count(*) AS n FROM observations_fts WHERE observations_fts MATCH ?`);

const ranked = db.prepare(
  'SELECT rowid AS id, rank FROM observations_fts WHERE observations_fts MATCH ? ORDER BY rank LIMIT 10',
);
const unranked = db.prepare('SELECT rowid AS id FROM observations_fts WHERE observations_fts MATCH ? LIMIT 10');
const pool = (n) =>
  db.prepare(
    `SELECT id, r FROM (SELECT rowid AS id, bm25(observations_fts) AS r FROM observations_fts
      WHERE observations_fts MATCH ? ORDER BY rowid DESC LIMIT ${n}) ORDER BY r LIMIT 10`,
  );
const pool1k = pool(1000);
const pool250 = pool(250);

/** What MemoryService#retrieve does: all terms; any term when fewer than 10 match all. */
function twoPhase(stmt, query) {
  const all = ftsMatchExpression(query, 'all');
  const any = ftsMatchExpression(query, 'any');
  const hits = stmt.all(all);
  if (hits.length < 10 && any !== all) return { hits: hits.concat(stmt.all(any)), fallback: true, all, any };
  return { hits, fallback: false, all, any };
}

/** Terms matching more than 5% of rows are dropped while a rarer one remains. */
function pruned(query) {
  const terms = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])].slice(0, 32);
  // fts5vocab holds stemmed terms: ask the index itself for the document frequency instead
  const df = terms.map((t) => dfStmt.get(t)?.doc ?? porter.get(`"${t}"`).n);
  const keep = terms.filter((_, i) => df[i] <= total * 0.05);
  return (keep.length > 0 ? keep : terms).join(' ');
}

const vocabulary = buildVocabulary();
const queries = makeQueries(vocabulary, Number(countArg ?? 600), 99);
for (const q of makeQueries(vocabulary, 100, 98)) twoPhase(ranked, q); // warm the page cache

const time = (fn) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const samples = { ranked: [], unranked: [], 'pool-1000': [], 'pool-250': [], pruned: [] };
const shapes = [];
for (const q of queries) {
  let info;
  samples.ranked.push(
    time(() => {
      info = twoPhase(ranked, q);
    }),
  );
  samples.unranked.push(time(() => twoPhase(unranked, q)));
  samples['pool-1000'].push(time(() => twoPhase(pool1k, q)));
  samples['pool-250'].push(time(() => twoPhase(pool250, q)));
  const p = pruned(q);
  samples.pruned.push(time(() => twoPhase(ranked, p)));
  const nAll = porter.get(info.all).n;
  const scored = info.fallback ? nAll + porter.get(info.any).n : nAll;
  shapes.push({ q, ms: samples.ranked.at(-1), fallback: info.fallback, scored });
}

const row = (name, list) => {
  const s = summarize(list);
  return [name, fmtMs(s.p50), fmtMs(s.p95), fmtMs(s.p99), fmtMs(s.mean)];
};
process.stdout.write(`${total.toLocaleString('en-US')} observations, ${queries.length} queries\n\n`);
process.stdout.write(
  `${renderTable(
    ['query shape (FTS5 only, no snippets)', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms'],
    Object.entries(samples).map(([k, v]) => row(k, v)),
  )}\n\n`,
);

const buckets = [
  [0, 100],
  [100, 1000],
  [1000, 10_000],
  [10_000, 30_000],
  [30_000, Number.POSITIVE_INFINITY],
];
const bucketRows = buckets
  .map(([lo, hi]) => {
    const b = shapes.filter((s) => s.scored >= lo && s.scored < hi);
    if (b.length === 0) return null;
    const s = summarize(b.map((x) => x.ms));
    const perK =
      (b.reduce((a, x) => a + x.ms, 0) /
        Math.max(
          1,
          b.reduce((a, x) => a + x.scored, 0),
        )) *
      1000;
    return [
      `${lo.toLocaleString('en-US')}-${hi === Number.POSITIVE_INFINITY ? '' : hi.toLocaleString('en-US')}`,
      b.length,
      fmtMs(s.p50),
      fmtMs(s.p95),
      perK.toFixed(2),
    ];
  })
  .filter(Boolean);
process.stdout.write(
  `${renderTable(['rows BM25 must score', 'queries', 'ranked p50 ms', 'ranked p95 ms', 'ms per 1k rows'], bucketRows)}\n\n`,
);
const fallbackShare = shapes.filter((s) => s.fallback).length / shapes.length;
process.stdout.write(`any-term fallback taken by ${(fallbackShare * 100).toFixed(0)}% of queries\n`);
const heads = vocabulary.slice(0, 5).map((w) => `${w} ${((porter.get(`"${w}"`).n / total) * 100).toFixed(0)}%`);
process.stdout.write(`share of rows matching the 5 most frequent terms: ${heads.join(', ')}\n`);
process.stdout.write(
  `share of rows matching path parts: ${['src', 'ts', 'apps', 'packages'].map((w) => `${w} ${((porter.get(`"${w}"`).n / total) * 100).toFixed(0)}%`).join(', ')}\n`,
);
db.close();
