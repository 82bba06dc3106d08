import { statSync } from 'node:fs';
import { makeQueries } from '../lib/corpus.mjs';
import { CONFIG, core, details, HOME, K, LARGE, log, row, TARGETS, vocabulary } from '../lib/setup.mjs';
import { fmtMs, fmtRate, summarize } from '../lib/util.mjs';
import { DB } from './inserts.mjs';

// ---------------------------------------------------------------- 2. search in the library

export async function benchSearch(size) {
  log(`[2/6] search at ${K(size)} observations: ${CONFIG.queries} queries (library, then handleToolCall)`);
  const colony = core.openColony({ home: HOME, dbPath: DB });
  try {
    const count = colony.status().observations;
    if (count !== size) throw new Error(`corpus has ${count} observations, expected ${size}`);
    const warm = makeQueries(vocabulary, CONFIG.warmup, 98);
    const queries = makeQueries(vocabulary, CONFIG.queries, 99);
    for (const query of warm) colony.memory.search({ query, limit: 10 });
    for (const query of warm) await colony.handleToolCall('search', { query, limit: 10 });

    const lib = [];
    let hits = 0;
    let empty = 0;
    for (const query of queries) {
      const t0 = performance.now();
      const found = colony.memory.search({ query, limit: 10 });
      lib.push(performance.now() - t0);
      hits += found.length;
      if (found.length === 0) empty++;
    }
    const tool = [];
    for (const query of queries) {
      const t0 = performance.now();
      const out = await colony.handleToolCall('search', { query, limit: 10 });
      tool.push(performance.now() - t0);
      if (!out.ok) throw new Error(`search failed: ${out.text}`);
    }
    const libS = summarize(lib);
    const toolS = summarize(tool);
    details[`search_${K(size)}`] = {
      observations: size,
      queries: queries.length,
      mean_hits: hits / queries.length,
      zero_hit_queries: empty,
      library_ms: libS,
      tool_call_ms: toolS,
      slowest_queries: slowest(queries, lib, 5),
    };
    const targeted = size === LARGE;
    const p = (s) => `p50 ${fmtMs(s.p50)} / p95 ${fmtMs(s.p95)} / p99 ${fmtMs(s.p99)} ms`;
    row(
      `search @${K(size)}, memory.search (library)`,
      p(libS),
      targeted ? `p50 <= ${TARGETS.searchP50Ms}, p95 <= ${TARGETS.searchP95Ms}` : null,
      targeted ? libS.p50 <= TARGETS.searchP50Ms && libS.p95 <= TARGETS.searchP95Ms : null,
    );
    row(
      `search @${K(size)}, handleToolCall('search')`,
      p(toolS),
      targeted ? `p50 <= ${TARGETS.searchP50Ms}, p95 <= ${TARGETS.searchP95Ms}` : null,
      targeted ? toolS.p50 <= TARGETS.searchP50Ms && toolS.p95 <= TARGETS.searchP95Ms : null,
    );
  } finally {
    colony.close();
  }
}

// ---------------------------------------------------------------- 2b. hybrid search in the library

/** Multiply-adds of a brute-force cosine scan over `n` vectors of `dims` (what vector-only candidates would cost). */
export function bruteForceScanMs(n, dims) {
  const matrix = new Float32Array(n * dims);
  for (let i = 0; i < matrix.length; i++) matrix[i] = ((i * 2654435761) % 1000) / 1000 - 0.5;
  const q = matrix.slice(0, dims);
  const out = new Float32Array(n);
  const times = [];
  for (let run = 0; run < 8; run++) {
    const t0 = performance.now();
    for (let r = 0, o = 0; r < n; r++, o += dims) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let j = 0; j < dims; j += 4) {
        s0 += matrix[o + j] * q[j];
        s1 += matrix[o + j + 1] * q[j + 1];
        s2 += matrix[o + j + 2] * q[j + 2];
        s3 += matrix[o + j + 3] * q[j + 3];
      }
      out[r] = s0 + s1 + s2 + s3;
    }
    times.push(performance.now() - t0);
  }
  return summarize(times.slice(2)).p50;
}

/**
 * Vectors for the whole corpus (the backfill `colony memory index` and the idle MCP
 * server run, timed), then search at the default alpha (BM25 candidates re-ranked by
 * similarity) against alpha 1 (keywords alone) in alternating blocks, and
 * task_suggest_approach.
 */
export async function benchHybridSearch(size) {
  log(
    `[2b/6] hybrid search at ${K(size)}: vector backfill, then ${CONFIG.queries} queries at the default alpha and at 1`,
  );
  const colony = core.openColony({ home: HOME, dbPath: DB });
  const keywordOnly = core.openColony({
    home: HOME,
    dbPath: DB,
    receipts: false,
    settings: { ...core.defaultSettings(), search: { alpha: 1 } },
  });
  try {
    const t0 = performance.now();
    const filled = colony.vectors.backfill();
    const backfillMs = performance.now() - t0;
    if (filled.vectors !== size) throw new Error(`backfill left ${size - filled.vectors} rows without a vector`);
    const t1 = performance.now();
    const again = colony.vectors.backfill();
    const recheckMs = performance.now() - t1;
    const alpha = colony.settings.search.alpha;
    const warm = makeQueries(vocabulary, CONFIG.warmup, 98);
    const queries = makeQueries(vocabulary, CONFIG.queries, 99);
    for (const query of warm) {
      colony.memory.search({ query, limit: 10 });
      keywordOnly.memory.search({ query, limit: 10 });
    }
    const hybrid = [];
    const keyword = [];
    let reordered = 0;
    for (let i = 0; i < queries.length; i += 50) {
      const block = queries.slice(i, i + 50);
      for (const query of block) {
        const a = performance.now();
        colony.memory.search({ query, limit: 10 });
        hybrid.push(performance.now() - a);
      }
      for (const query of block) {
        const a = performance.now();
        keywordOnly.memory.search({ query, limit: 10 });
        keyword.push(performance.now() - a);
      }
    }
    for (const query of queries.slice(0, 100)) {
      const h = colony.memory.search({ query, limit: 10 }).map((x) => x.id);
      const k = keywordOnly.memory.search({ query, limit: 10 }).map((x) => x.id);
      if (h.join() !== k.join()) reordered++;
    }
    const tool = [];
    for (const query of queries) {
      const a = performance.now();
      const out = await colony.handleToolCall('search', { query, limit: 10 });
      tool.push(performance.now() - a);
      if (!out.ok) throw new Error(`search failed: ${out.text}`);
    }
    const suggest = [];
    let suggested = 0;
    for (const query of queries.slice(0, 100)) {
      const a = performance.now();
      const out = await colony.handleToolCall('task_suggest_approach', { query, limit: 5 });
      suggest.push(performance.now() - a);
      if (!out.ok) throw new Error(`task_suggest_approach failed: ${out.text}`);
      if (out.value.similar_tasks.length > 0) suggested++;
    }
    const scanMs = bruteForceScanMs(size, filled.dims);
    const hybridS = summarize(hybrid);
    const keywordS = summarize(keyword);
    const toolS = summarize(tool);
    const suggestS = summarize(suggest);
    const rate = (filled.embedded / backfillMs) * 1000;
    details[`hybrid_search_${K(size)}`] = {
      embedder: filled.embedder_id,
      alpha,
      backfill: {
        embedded: filled.embedded,
        ms: backfillMs,
        per_sec: rate,
        recheck_ms: recheckMs,
        recheck_embedded: again.embedded,
      },
      db_bytes: statSync(DB).size,
      library_ms: hybridS,
      keyword_only_library_ms: keywordS,
      tool_call_ms: toolS,
      reordered_top10_of_100: reordered,
      suggest_ms: suggestS,
      suggest_queries_with_similar_tasks_of_100: suggested,
      brute_force_scan_ms: scanMs,
    };
    const p = (s) => `p50 ${fmtMs(s.p50)} / p95 ${fmtMs(s.p95)} / p99 ${fmtMs(s.p99)} ms`;
    row(
      `vector backfill @${K(size)} (colony.vectors.backfill, ${filled.embedder_id})`,
      `${fmtRate(rate)} /s (${(backfillMs / 1000).toFixed(1)} s; a re-run finding nothing: ${fmtMs(recheckMs)} ms)`,
      null,
      null,
    );
    row(
      `search @${K(size)} hybrid (alpha ${alpha}), memory.search (library)`,
      `${p(hybridS)} (alpha 1 interleaved: p50 ${fmtMs(keywordS.p50)}; top 10 reordered in ${reordered}/100)`,
      `p50 <= ${TARGETS.searchP50Ms}`,
      hybridS.p50 <= TARGETS.searchP50Ms,
    );
    row(`search @${K(size)} hybrid (alpha ${alpha}), handleToolCall('search')`, p(toolS), null, null);
    row(
      `task_suggest_approach @${K(size)}, handleToolCall`,
      `${p(suggestS)} (${suggested}/100 queries found similar tasks)`,
      null,
      null,
    );
    row(
      `brute-force cosine over ${K(size)} x ${filled.dims} Float32 (vector-only candidates, not used)`,
      `${fmtMs(scanMs)} ms per query`,
      null,
      null,
    );
  } finally {
    keywordOnly.close();
    colony.close();
  }
}

export function slowest(queries, times, n) {
  return times
    .map((ms, i) => ({ query: queries[i], ms: Math.round(ms * 100) / 100 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);
}
