#!/usr/bin/env node
/**
 * colony benchmarks. Run from the repo root: `pnpm bench` (builds, then runs this), or
 * `node bench/run.mjs [--quick] [--keep] [--strict]` on an existing build.
 *
 *   --quick   smaller corpus (5k/20k), fewer queries and runs: a smoke run in ~1 minute
 *   --keep    keep the temp dir (stores, logs) and print its path
 *   --strict  exit 1 when a target is missed (default: report only)
 *   --only S  run only these sections (comma-separated: startup, ready, claims, tools-list)
 *
 * Imports the BUILT packages (packages/x/dist) and spawns the built servers, so it
 * measures what ships. Prints a table and writes bench/out/results.json. Timing lives
 * here and only here: tests never assert on time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  buildVocabulary,
  makeQueries,
  noteStream,
  SESSION_COUNT,
  sessionId,
  TASK_COUNT,
  taskBranch,
} from './lib/corpus.mjs';
import { benchRuntime } from './lib/runtime-bench.mjs';
import { benchStartup } from './lib/startup-bench.mjs';
import {
  fmtMs,
  fmtRate,
  INITIALIZE_PARAMS,
  killAllChildren,
  machineFacts,
  RawRpc,
  renderTable,
  rssOf,
  sleep,
  spawnTracked,
  stopChild,
  summarize,
  trackPid,
  withTimeout,
} from './lib/util.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({
  // `pnpm bench -- --quick` passes the `--` through
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    quick: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (flags.help) {
  process.stdout.write('usage: node bench/run.mjs [--quick] [--keep] [--strict] [--only startup,ready,...]\n');
  process.exit(0);
}

const CONFIG = flags.quick
  ? {
      mode: 'quick',
      sizes: [5_000, 20_000],
      queries: 300,
      warmup: 100,
      singleInserts: 500,
      toolInserts: 300,
      mcpCalls: 300,
      rawCalls: 200,
      coldRuns: 5,
      rssCalls: 100,
      batch: 1000,
      claimCalls: 300,
      claimsPerWriter: 150,
      ctxCalls: 500,
      queueItems: 2_000,
      queueConsumers: 8,
      raceRounds: 10,
      readyCalls: 200,
      readyClaims: 50,
      startupRounds: 60,
    }
  : {
      mode: 'full',
      sizes: [10_000, 100_000],
      queries: 600,
      warmup: 100,
      singleInserts: 2000,
      toolInserts: 600,
      mcpCalls: 600,
      rawCalls: 300,
      coldRuns: 10,
      rssCalls: 100,
      batch: 1000,
      claimCalls: 1000,
      claimsPerWriter: 400,
      ctxCalls: 2_000,
      queueItems: 10_000,
      queueConsumers: 8,
      raceRounds: 50,
      readyCalls: 600,
      readyClaims: 150,
      startupRounds: 200,
    };
const LARGE = CONFIG.sizes.at(-1);

const TARGETS = {
  batchedPerSec: 20_000,
  searchP50Ms: 2,
  searchP95Ms: 5,
  mcpP50Ms: 3,
  coldStartMs: 150,
  idleRssMiB: 45,
};

// ---------------------------------------------------------------- the built artefacts

const DIST = {
  storage: join(ROOT, 'packages/storage/dist/index.js'),
  coordination: join(ROOT, 'packages/coordination/dist/index.js'),
  core: join(ROOT, 'packages/core/dist/index.js'),
  mcpMain: join(ROOT, 'apps/mcp-server/dist/main.js'),
  cli: join(ROOT, 'apps/cli/dist/cli.js'),
};
const missing = Object.values(DIST).filter((p) => !existsSync(p));
if (missing.length > 0) {
  process.stderr.write(`bench: not built (${missing.join(', ')}): run \`pnpm build\` or \`pnpm bench\`\n`);
  process.exit(2);
}
const storage = await import(pathToFileURL(DIST.storage).href);
const coordination = await import(pathToFileURL(DIST.coordination).href);
const core = await import(pathToFileURL(DIST.core).href);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
// The very tokenizer colony resolves (gpt-tokenizer is a dependency of @swarm/coordination).
const { countTokens } = createRequire(join(ROOT, 'packages/coordination/package.json'))(
  'gpt-tokenizer/encoding/cl100k_base',
);

// ---------------------------------------------------------------- temp dir and cleanup

const TMP = mkdtempSync(join(os.tmpdir(), 'colony-bench-'));
const HOME = join(TMP, 'home');
mkdirSync(HOME);
let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  killAllChildren();
  if (flags.keep) process.stderr.write(`bench: kept ${TMP}\n`);
  else rmSync(TMP, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    process.stderr.write(`\nbench: ${sig}, cleaning up\n`);
    cleanup();
    process.exit(130);
  });
}

// ---------------------------------------------------------------- results

const rows = [];
const details = {};
const log = (line) => process.stderr.write(`${line}\n`);

/** One table line. `pass` is true/false against a target, or null for information only. */
function row(measure, result, target, pass) {
  rows.push({ measure, result, target: target ?? '-', status: pass === null ? 'info' : pass ? 'pass' : 'MISS' });
}

const vocabulary = buildVocabulary();
const K = (n) => (n >= 1000 ? `${n / 1000}k` : String(n));

// ---------------------------------------------------------------- 1a. single inserts

async function benchSingleInserts() {
  log(`[1/6] single inserts: ${CONFIG.singleInserts} task posts, one write transaction each`);
  const colony = core.openColony({ home: HOME, dbPath: join(TMP, 'single.db') });
  try {
    const thread = colony.tasks.thread({
      repo_root: TMP,
      branch: 'agent/bench/single',
      session_id: 'claude-bench-single',
      agent: 'claude',
    });
    const stream = noteStream(vocabulary, 11);
    const post = (n) =>
      colony.tasks.post({
        task_id: thread.task_id,
        session_id: 'claude-bench-single',
        kind: n.kind,
        content: n.content,
      });
    const warm = Array.from({ length: 200 }, () => stream.next());
    for (const n of warm) post(n);

    const notes = Array.from({ length: CONFIG.singleInserts }, () => stream.next());
    const t0 = performance.now();
    for (const n of notes) post(n);
    const libMs = performance.now() - t0;

    // The same through the tool surface: zod parsing, the post and its receipt (a second write).
    const toolNotes = Array.from({ length: CONFIG.toolInserts }, () => stream.next());
    const t1 = performance.now();
    for (const n of toolNotes) {
      const out = await colony.handleToolCall('task_post', {
        task_id: thread.task_id,
        session_id: 'claude-bench-single',
        kind: n.kind,
        content: n.content,
      });
      if (!out.ok) throw new Error(`task_post failed: ${out.text}`);
    }
    const toolMs = performance.now() - t1;

    const libRate = (CONFIG.singleInserts / libMs) * 1000;
    const toolRate = (CONFIG.toolInserts / toolMs) * 1000;
    details.single_inserts = {
      library: {
        count: CONFIG.singleInserts,
        ms: libMs,
        per_sec: libRate,
        us_each: (libMs * 1000) / CONFIG.singleInserts,
      },
      tool_call: {
        count: CONFIG.toolInserts,
        ms: toolMs,
        per_sec: toolRate,
        us_each: (toolMs * 1000) / CONFIG.toolInserts,
      },
    };
    row('insert, single (colony.tasks.post, 1 txn each)', `${fmtRate(libRate)} /s`, null, null);
    row("insert, single (handleToolCall('task_post') + receipt)", `${fmtRate(toolRate)} /s`, null, null);
  } finally {
    colony.close();
  }
}

// ---------------------------------------------------------------- 1b. the corpus store, batched

const DB = join(TMP, 'corpus.db');
const batchStats = { notes: 0, tokenizeMs: 0, insertMs: 0, generateMs: 0, tokens: 0, chars: 0, segments: [] };
let corpusStream;
let taskIds;

function createCorpusStore() {
  const store = storage.openStore({ path: DB });
  const now = 1_714_000_000_000;
  taskIds = store.write(() => {
    for (let i = 0; i < SESSION_COUNT; i++) {
      storage.upsertSession(
        store,
        { id: sessionId(i), ide: sessionId(i).split('-')[0], agent: sessionId(i).split('-')[0] },
        now,
      );
    }
    const ids = [];
    for (let t = 0; t < TASK_COUNT; t++) {
      const { task } = storage.ensureTask(
        store,
        { repoRoot: '/work/repo', branch: taskBranch(t), title: `feature ${t}`, createdBySession: sessionId(t) },
        now,
      );
      ids.push(task.id);
      for (let s = t; s < SESSION_COUNT; s += TASK_COUNT) storage.joinTask(store, task.id, sessionId(s), 'claude', now);
    }
    return ids;
  });
  corpusStream = noteStream(vocabulary, 1);
  return store;
}

/** Grows the corpus store to `target` observations, 1,000 per write transaction. */
function extendCorpus(store, target) {
  const tokens = coordination.createTokenCounter();
  tokens.count('warm the tokenizer up'); // loading it is a one-off, not a per-insert cost
  const segment = { from: batchStats.notes, to: target, tokenizeMs: 0, insertMs: 0 };
  while (batchStats.notes < target) {
    const size = Math.min(CONFIG.batch, target - batchStats.notes);
    const g0 = performance.now();
    const batch = [];
    for (let i = 0; i < size; i++) {
      const n = corpusStream.next();
      const seq = batchStats.notes + i;
      batch.push({
        sessionId: sessionId(n.sessionIndex),
        // about a quarter of notes are session-only (no task thread)
        taskId: n.taskIndex < 12 ? taskIds[n.taskIndex] : null,
        kind: n.kind,
        content: n.content,
        ts: 1_714_000_000_000 + seq * 1500,
      });
    }
    const t0 = performance.now();
    // As appendObservation does: the real tokenizer counts every body.
    for (const o of batch) {
      o.tokenCount = tokens.count(o.content);
      batchStats.tokens += o.tokenCount;
      batchStats.chars += o.content.length;
    }
    const t1 = performance.now();
    storage.insertObservations(store, batch);
    const t2 = performance.now();
    batchStats.generateMs += t0 - g0;
    segment.tokenizeMs += t1 - t0;
    segment.insertMs += t2 - t1;
    batchStats.tokenizeMs += t1 - t0;
    batchStats.insertMs += t2 - t1;
    batchStats.notes += size;
  }
  batchStats.segments.push(segment);
  return segment;
}

// ---------------------------------------------------------------- 2. search in the library

async function benchSearch(size) {
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
function bruteForceScanMs(n, dims) {
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
async function benchHybridSearch(size) {
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

function slowest(queries, times, n) {
  return times
    .map((ms, i) => ({ query: queries[i], ms: Math.round(ms * 100) / 100 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);
}

// ---------------------------------------------------------------- 3. MCP stdio round trip

async function benchMcpRoundTrip() {
  log(
    `[3/6] MCP stdio round trip at ${K(LARGE)}: ${CONFIG.mcpCalls} search calls (SDK client), ${CONFIG.rawCalls} (raw JSON-RPC)`,
  );
  const queries = makeQueries(vocabulary, CONFIG.mcpCalls, 99);
  const warm = makeQueries(vocabulary, CONFIG.warmup, 98);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DIST.mcpMain, '--db', DB, '--home', HOME],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'colony-bench', version: '0.0.0' });
  await withTimeout(client.connect(transport), 15_000, 'MCP connect');
  const untrack = trackPid(transport.pid);
  const sdk = [];
  const floor = [];
  try {
    const call = (query) => client.callTool({ name: 'search', arguments: { query, limit: 10 } });
    for (const query of warm) await call(query);
    for (const query of queries) {
      const t0 = performance.now();
      const out = await call(query);
      sdk.push(performance.now() - t0);
      if (out.isError) throw new Error(`search failed: ${JSON.stringify(out.content)}`);
    }
    // A query that matches nothing: what the MCP path costs around an (almost) free search.
    for (let i = 0; i < CONFIG.rawCalls; i++) {
      const t0 = performance.now();
      await call(i % 2 ? 'zzqxv' : 'qqzzw wwxyk');
      floor.push(performance.now() - t0);
    }
  } finally {
    await client.close().catch(() => {});
    untrack();
  }

  // The same calls with no SDK client: what the server and the pipe cost on their own.
  const child = spawnTracked(process.execPath, [DIST.mcpMain, '--db', DB, '--home', HOME]);
  const raw = [];
  try {
    const rpc = new RawRpc(child);
    await rpc.initialize();
    const call = (query) => rpc.request('tools/call', { name: 'search', arguments: { query, limit: 10 } });
    for (const query of warm.slice(0, 50)) await call(query);
    for (const query of queries.slice(0, CONFIG.rawCalls)) {
      const t0 = performance.now();
      await call(query);
      raw.push(performance.now() - t0);
    }
  } finally {
    await stopChild(child);
  }
  const sdkS = summarize(sdk);
  const rawS = summarize(raw);
  const floorS = summarize(floor);
  details.mcp_round_trip = {
    observations: LARGE,
    sdk_calls: sdk.length,
    raw_calls: raw.length,
    sdk_client_ms: sdkS,
    raw_jsonrpc_ms: rawS,
    sdk_zero_hit_ms: floorS,
  };
  row(
    `MCP stdio search @${K(LARGE)}, SDK Client`,
    `p50 ${fmtMs(sdkS.p50)} / p95 ${fmtMs(sdkS.p95)} ms`,
    `p50 <= ${TARGETS.mcpP50Ms}`,
    sdkS.p50 <= TARGETS.mcpP50Ms,
  );
  row(`MCP stdio search @${K(LARGE)}, raw JSON-RPC`, `p50 ${fmtMs(rawS.p50)} / p95 ${fmtMs(rawS.p95)} ms`, null, null);
  row(
    'MCP stdio search, zero-hit query, SDK Client (path floor)',
    `p50 ${fmtMs(floorS.p50)} / p95 ${fmtMs(floorS.p95)} ms`,
    null,
    null,
  );
}

// ---------------------------------------------------------------- 4. cold start

const SERVERS = {
  'colony-mcp (apps/mcp-server/dist/main.js)': () => [DIST.mcpMain, '--db', DB, '--home', HOME],
  'colony mcp (apps/cli/dist/cli.js mcp)': () => [DIST.cli, 'mcp', '--db', DB, '--home', HOME],
};
const BARE_NODE = [
  '-e',
  'process.stdin.once("data",()=>process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:1,result:{}})+"\\n"))',
];

/** Spawn -> the initialize answer on stdout, over raw JSON-RPC written right after spawn. */
async function coldStartOnce(args) {
  const t0 = performance.now();
  const child = spawnTracked(process.execPath, args);
  try {
    const rpc = new RawRpc(child);
    await rpc.request('initialize', INITIALIZE_PARAMS, 20_000);
    return performance.now() - t0;
  } finally {
    await stopChild(child);
  }
}

/**
 * Spawn -> the answer to the first `search`, after initialize and tools/list: what an
 * agent's first colony call waits for, now that a server loads the SDK, the tool
 * definitions and SQLite on that call rather than before initialize.
 */
async function firstCallOnce(args) {
  const t0 = performance.now();
  const child = spawnTracked(process.execPath, args);
  try {
    const rpc = new RawRpc(child);
    await rpc.initialize();
    await rpc.request('tools/list', {}, 20_000);
    const t1 = performance.now();
    await rpc.request('tools/call', { name: 'search', arguments: { query: 'lease timeout', limit: 10 } }, 20_000);
    const t2 = performance.now();
    return { total: t2 - t0, call: t2 - t1 };
  } finally {
    await stopChild(child);
  }
}

async function benchColdStart() {
  log(
    `[4/6] cold start: spawn -> initialize answer, median of ${CONFIG.coldRuns} (round-robin, one discarded warm-up each)`,
  );
  const variants = { ...SERVERS, 'bare node answering one line (floor)': () => BARE_NODE };
  const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (const make of Object.values(variants)) await coldStartOnce(make()); // page cache, not timed
  for (let i = 0; i < CONFIG.coldRuns; i++) {
    for (const [name, make] of Object.entries(variants)) samples[name].push(await coldStartOnce(make()));
  }
  const [firstName, firstArgs] = Object.entries(SERVERS)[0];
  const first = [];
  for (let i = 0; i < CONFIG.coldRuns; i++) first.push(await firstCallOnce(firstArgs()));
  const firstTotal = summarize(first.map((f) => f.total));
  const firstCall = summarize(first.map((f) => f.call));
  details.first_call_ms = { server: firstName, total: firstTotal, call_alone: firstCall };
  row(
    `cold start to the first search answer, ${firstName} (after initialize + tools/list)`,
    `median ${fmtMs(firstTotal.p50)} ms (the call alone ${fmtMs(firstCall.p50)} ms)`,
    null,
    null,
  );
  details.cold_start_ms = {};
  for (const [name, list] of Object.entries(samples)) {
    const s = summarize(list);
    details.cold_start_ms[name] = { ...s, samples: list };
    const isServer = name in SERVERS;
    row(
      `cold start, ${name}`,
      `median ${fmtMs(s.p50)} ms (min ${fmtMs(s.min)})`,
      isServer ? `<= ${TARGETS.coldStartMs} ms` : null,
      isServer ? s.p50 <= TARGETS.coldStartMs : null,
    );
  }
}

// ---------------------------------------------------------------- hooks

/** One `colony hook run`: spawn, payload on stdin, -> exit. */
async function hookOnce(event, payload) {
  const t0 = performance.now();
  const child = spawnTracked(process.execPath, [
    DIST.cli,
    'hook',
    'run',
    event,
    '--ide',
    'claude-code',
    '--home',
    HOME,
  ]);
  const exited = new Promise((res) => child.once('exit', res));
  child.stdin.end(JSON.stringify(payload));
  const code = await exited;
  if (code !== 0) throw new Error(`hook run ${event} exited ${code}`);
  return performance.now() - t0;
}

/** IDE hook latency: each edit in Claude Code or Codex waits for pre- and post-tool-use. */
async function benchHooks() {
  log(`[hooks] colony hook run: spawn -> exit, median of ${CONFIG.coldRuns} per event (round-robin)`);
  const repo = join(TMP, 'hook-repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
  const base = { session_id: 'bench-hooks', transcript_path: null, cwd: repo };
  const edit = {
    tool_name: 'Edit',
    tool_input: { file_path: join(repo, 'src/a.ts'), old_string: 'a', new_string: 'b' },
  };
  const events = [
    ['session-start', 'session-start', { ...base, hook_event_name: 'SessionStart', source: 'startup' }],
    ['pre-tool-use (Edit)', 'pre-tool-use', { ...base, hook_event_name: 'PreToolUse', ...edit }],
    ['post-tool-use (Edit)', 'post-tool-use', { ...base, hook_event_name: 'PostToolUse', ...edit }],
    ['stop', 'stop', { ...base, hook_event_name: 'Stop', stop_hook_active: false }],
  ];
  for (const [, event, payload] of events) await hookOnce(event, payload); // page cache and store creation, not timed
  const samples = Object.fromEntries(events.map(([label]) => [label, []]));
  for (let i = 0; i < CONFIG.coldRuns; i++) {
    for (const [label, event, payload] of events) samples[label].push(await hookOnce(event, payload));
  }
  details.hook_run_ms = {};
  for (const [name, list] of Object.entries(samples)) {
    const s = summarize(list);
    details.hook_run_ms[name] = { ...s, samples: list };
    row(`hook run ${name}, spawn -> exit`, `median ${fmtMs(s.p50)} ms (min ${fmtMs(s.min)})`, null, null);
  }
}

// ---------------------------------------------------------------- 5. RSS

async function rssProfile(args, searches) {
  const child = spawnTracked(process.execPath, args);
  try {
    const rpc = new RawRpc(child);
    await rpc.initialize();
    await rpc.request('tools/list', {});
    await sleep(2000);
    const idle = rssOf(child.pid);
    let afterSearch = null;
    if (searches > 0) {
      for (const query of makeQueries(vocabulary, searches, 97)) {
        await rpc.request('tools/call', { name: 'search', arguments: { query, limit: 10 } });
      }
      afterSearch = rssOf(child.pid);
    }
    return { idle, afterSearch };
  } finally {
    await stopChild(child);
  }
}

async function benchRss() {
  log(`[5/6] RSS: after initialize + tools/list + 2 s idle, then after ${CONFIG.rssCalls} searches`);
  details.rss_mib = {};
  const baseline = spawnTracked(process.execPath, ['-e', 'process.stdin.resume()']);
  try {
    await sleep(2000);
    details.rss_mib.bare_node = rssOf(baseline.pid);
  } finally {
    await stopChild(baseline);
  }
  for (const [name, make] of Object.entries(SERVERS)) {
    const r = await rssProfile(make(), CONFIG.rssCalls);
    details.rss_mib[name] = r;
    row(
      `idle RSS, ${name}`,
      `${r.idle.rss.toFixed(1)} MiB`,
      `<= ${TARGETS.idleRssMiB} MiB`,
      r.idle.rss <= TARGETS.idleRssMiB,
    );
    row(
      `RSS after ${CONFIG.rssCalls} searches @${K(LARGE)}, ${name}`,
      `${r.afterSearch.rss.toFixed(1)} MiB (peak ${r.afterSearch.hwm.toFixed(1)})`,
      null,
      null,
    );
  }
  row('RSS of a bare `node -e` reading stdin (floor)', `${details.rss_mib.bare_node.rss.toFixed(1)} MiB`, null, null);
}

// ---------------------------------------------------------------- 6. tools/list size

async function benchToolsList() {
  log('[6/6] tools/list payload per toolset');
  details.tools_list = {};
  for (const toolset of ['core', 'all', 'framework']) {
    const child = spawnTracked(process.execPath, [DIST.mcpMain, '--db', DB, '--home', HOME, '--toolset', toolset]);
    try {
      const rpc = new RawRpc(child);
      await rpc.initialize();
      const { tools } = await rpc.request('tools/list', {});
      const json = JSON.stringify(tools);
      const entry = {
        tools: tools.length,
        tokens: countTokens(json),
        bytes: Buffer.byteLength(json),
        names: tools.map((t) => t.name),
      };
      details.tools_list[toolset] = entry;
      row(
        `tools/list --toolset ${toolset}`,
        `${entry.tools} tools, ${fmtRate(entry.tokens)} tokens (${fmtRate(entry.bytes)} B)`,
        null,
        null,
      );
    } finally {
      await stopChild(child);
    }
  }
}

// ---------------------------------------------------------------- 7. file claims

const BUSY = /SQLITE_BUSY|database is locked/i;

/** An SDK client on a freshly spawned colony-mcp (with more environment, e.g. COLONY_CLOCK_FILE), stderr collected. */
async function connectServer(db, env) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DIST.mcpMain, '--db', db, '--home', HOME],
    stderr: 'pipe',
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'colony-bench', version: '0.0.0' });
  await withTimeout(client.connect(transport), 15_000, 'MCP connect');
  const untrack = trackPid(transport.pid);
  return {
    call: (name, args) => client.callTool({ name, arguments: args }),
    stderr: () => stderr,
    close: async () => {
      await client.close().catch(() => {});
      untrack();
    },
  };
}

/** Each writer claims `perWriter` files of its own, all writers at once; returns wall ms and the errors. */
async function claimBurst(fleet, taskId, round) {
  const errors = [];
  const t0 = performance.now();
  await Promise.all(
    fleet.map(async (server, w) => {
      for (let i = 0; i < CONFIG.claimsPerWriter; i++) {
        const out = await server.call('task_claim_file', {
          task_id: taskId,
          session_id: `codex-bench-${w}`,
          file_path: `src/r${round}/w${w}/f${i}.ts`,
        });
        if (out.isError) errors.push(out.content?.[0]?.text ?? 'error');
      }
    }),
  );
  return { ms: performance.now() - t0, errors };
}

async function benchClaims() {
  const writers = 8;
  log(
    `[claims] task_claim_file: ${CONFIG.claimCalls} calls over MCP stdio, then ${writers} server processes x ${CONFIG.claimsPerWriter} claims on one db`,
  );
  const db = join(TMP, 'claims.db');
  const colony = core.openColony({ home: HOME, dbPath: db, receipts: false });
  let taskId;
  try {
    for (const [i, session] of [
      'claude-bench',
      ...Array.from({ length: writers }, (_, w) => `codex-bench-${w}`),
    ].entries()) {
      const out = await colony.handleToolCall('task_thread', {
        repo_root: join(TMP, 'claims-repo'),
        branch: 'main',
        session_id: session,
        agent: i === 0 ? 'claude' : 'codex',
      });
      if (!out.ok) throw new Error(`task_thread failed: ${out.text}`);
      taskId = out.value.task_id;
    }
  } finally {
    colony.close();
  }

  // One client, one server: the latency an agent pays per claim.
  const single = await connectServer(db);
  const latencies = [];
  try {
    const claim = (i) =>
      single.call('task_claim_file', { task_id: taskId, session_id: 'claude-bench', file_path: `src/single/f${i}.ts` });
    for (let i = 0; i < CONFIG.warmup; i++) await claim(-1 - i);
    for (let i = 0; i < CONFIG.claimCalls; i++) {
      const t0 = performance.now();
      const out = await claim(i);
      latencies.push(performance.now() - t0);
      if (out.isError) throw new Error(`task_claim_file failed: ${JSON.stringify(out.content)}`);
    }
  } finally {
    await single.close();
  }

  // Eight servers started at once; the first burst begins the moment all have connected.
  const fleet = await Promise.all(Array.from({ length: writers }, () => connectServer(db)));
  let cold;
  let warm;
  try {
    cold = await claimBurst(fleet, taskId, 0);
    warm = await claimBurst(fleet, taskId, 1);
  } finally {
    await Promise.all(fleet.map((s) => s.close()));
  }
  const total = writers * CONFIG.claimsPerWriter;
  const errors = [...cold.errors, ...warm.errors];
  const busy = errors.filter((e) => BUSY.test(e)).length + fleet.filter((s) => BUSY.test(s.stderr())).length;
  const lat = summarize(latencies);
  details.claims = {
    mcp_stdio_ms: lat,
    writers,
    claims_per_writer: CONFIG.claimsPerWriter,
    right_after_start: { ms: cold.ms, per_sec: (total / cold.ms) * 1000, errors: cold.errors.length },
    warm: { ms: warm.ms, per_sec: (total / warm.ms) * 1000, errors: warm.errors.length },
    busy_errors_surfaced: busy,
    other_errors: errors.filter((e) => !BUSY.test(e)).slice(0, 5),
  };
  row('task_claim_file over MCP stdio, SDK Client', `p50 ${fmtMs(lat.p50)} / p95 ${fmtMs(lat.p95)} ms`, null, null);
  row(
    `task_claim_file, ${writers} server processes on one db, right after they start`,
    `${fmtRate(details.claims.right_after_start.per_sec)} claims/s (${fmtRate(total)} claims)`,
    null,
    null,
  );
  row(
    `task_claim_file, ${writers} server processes on one db, warm`,
    `${fmtRate(details.claims.warm.per_sec)} claims/s`,
    null,
    null,
  );
  row(
    'SQLITE_BUSY / "database is locked" surfaced to callers (both bursts)',
    `${busy} (other errors: ${errors.length - busy})`,
    '0',
    busy === 0 && errors.length === 0,
  );
}

// ---------------------------------------------------------------- 8. seed-000 shared context

async function benchSharedContext() {
  log(`[swarm] shared context: ${CONFIG.ctxCalls} ctx_put, then ${CONFIG.ctxCalls} ctx_get (handleToolCall)`);
  const colony = core.openColony({ home: HOME, dbPath: join(TMP, 'ctx.db'), rateLimits: { '*': false } });
  try {
    const finding = (i) => ({
      ok: true,
      task: `task_${i % 200}`,
      data: [`src/module_${i}.ts`, `src/module_${i + 1}.ts`],
      ts: new Date(1_714_000_000_000 + i * 1000).toISOString(),
      agent: 'Gemini',
    });
    const key = (i) => `Gemini.task_${i % 200}`;
    const call = async (name, args) => {
      const out = await colony.handleToolCall(name, args);
      if (!out.ok) throw new Error(`${name} failed: ${out.text}`);
    };
    for (let i = 0; i < 200; i++) await call('ctx_put', { agent: 'Gemini', key: key(i), value: finding(i) });
    for (let i = 0; i < 200; i++) await call('ctx_get', { agent: 'Claude', key: key(i) });
    const put = [];
    for (let i = 0; i < CONFIG.ctxCalls; i++) {
      const t0 = performance.now();
      await call('ctx_put', { agent: 'Gemini', key: key(i), value: finding(i) });
      put.push(performance.now() - t0);
    }
    const get = [];
    for (let i = 0; i < CONFIG.ctxCalls; i++) {
      const t0 = performance.now();
      await call('ctx_get', { agent: 'Claude', key: key(i) });
      get.push(performance.now() - t0);
    }
    const putS = summarize(put);
    const getS = summarize(get);
    details.shared_context = { calls: CONFIG.ctxCalls, keys: 200, ctx_put_ms: putS, ctx_get_ms: getS };
    const p = (s) => `p50 ${fmtMs(s.p50)} / p95 ${fmtMs(s.p95)} / p99 ${fmtMs(s.p99)} ms`;
    row('ctx_put, handleToolCall (library, 1 write txn + receipt)', p(putS), null, null);
    row('ctx_get, handleToolCall (library)', p(getS), null, null);
  } finally {
    colony.close();
  }
}

// ---------------------------------------------------------------- 9. seed-000 work queue, 8 processes

const QUEUE_CONSUMER = join(ROOT, 'bench/lib/queue-consumer.mjs');

/** Resolves with each line a child prints, until `count` lines came. */
function readLines(child, count, ms) {
  return withTimeout(
    new Promise((resolve, reject) => {
      const lines = [];
      let buffer = '';
      child.stdout.setEncoding('utf8');
      const onData = (chunk) => {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          lines.push(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          if (lines.length === count) {
            child.stdout.off('data', onData);
            resolve(lines);
            return;
          }
        }
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) => reject(new Error(`queue consumer exited (${code}) early`)));
    }),
    ms,
    'queue consumer',
  );
}

async function benchWorkQueue(consumers) {
  const n = CONFIG.queueItems;
  log(`[swarm] work queue: ${n} items enqueued, drained by ${consumers} consumer process(es)`);
  const db = join(TMP, `queue-${consumers}.db`);
  const producer = core.openColony({ home: HOME, dbPath: db, rateLimits: { '*': false } });
  let enqueueMs;
  try {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const out = await producer.handleToolCall('coord_enqueue', { agent: 'producer', kind: 'work', payload: { i } });
      if (!out.ok) throw new Error(`coord_enqueue failed: ${out.text}`);
    }
    enqueueMs = performance.now() - t0;
  } finally {
    producer.close();
  }
  const coreUrl = pathToFileURL(DIST.core).href;
  const children = Array.from({ length: consumers }, (_, k) =>
    spawnTracked(process.execPath, [QUEUE_CONSUMER, coreUrl, db, HOME, `consumer-${k}`]),
  );
  let results;
  let drainMs;
  try {
    const ready = children.map((c) => readLines(c, 1, 30_000));
    await Promise.all(ready);
    const finished = children.map((c) => readLines(c, 1, 600_000));
    const t0 = performance.now();
    for (const c of children) c.stdin.write('go\n');
    results = (await Promise.all(finished)).map(([line]) => JSON.parse(line));
    drainMs = performance.now() - t0;
  } finally {
    await Promise.all(children.map((c) => stopChild(c)));
  }
  const done = results.reduce((sum, r) => sum + r.done, 0);
  const check = core.openColony({ home: HOME, dbPath: db, receipts: false, rateLimits: { '*': false } });
  let counts;
  try {
    const out = await check.handleToolCall('coord_status', { agent: 'bench' });
    counts = out.value.counts;
  } finally {
    check.close();
  }
  if (done !== n || counts.done !== n)
    throw new Error(`queue: ${done} completions, ${counts.done} done, expected ${n}`);
  const rate = (n / drainMs) * 1000;
  details[`work_queue_${consumers}`] = {
    items: n,
    consumers,
    enqueue_per_sec: (n / enqueueMs) * 1000,
    drain_ms: drainMs,
    items_per_sec: rate,
    per_consumer: results.map((r) => r.done),
  };
  if (consumers === CONFIG.queueConsumers) {
    row(
      `queue, enqueue (handleToolCall('coord_enqueue'), 1 process)`,
      `${fmtRate((n / enqueueMs) * 1000)} /s`,
      null,
      null,
    );
  }
  row(
    `queue, ${consumers} consumer process${consumers === 1 ? '' : 'es'} (coord_next + coord_complete)`,
    `${fmtRate(rate)} items/s (${fmtRate(n)} in ${(drainMs / 1000).toFixed(1)} s, each once)`,
    null,
    null,
  );
}

// ---------------------------------------------------------------- 10. plan sub-task claim race

/**
 * Sixteen server processes claim one plan sub-task at once, each for its own session;
 * one fresh plan per round. Settle time: from firing the sixteen calls until the last
 * answer is back (one winner, fifteen PLAN_SUBTASK_NOT_AVAILABLE).
 */
async function benchPlanRace() {
  const racers = 16;
  log(`[plans] task_plan_claim_subtask: ${racers} server processes racing one sub-task, ${CONFIG.raceRounds} rounds`);
  const db = join(TMP, 'plans.db');
  const repo = join(TMP, 'plans-repo');
  mkdirSync(repo);
  const colony = core.openColony({ home: HOME, dbPath: db, receipts: false });
  try {
    for (let round = 0; round < CONFIG.raceRounds; round++) {
      await colony.plans.publish({
        repo_root: repo,
        slug: `race-${round}`,
        session_id: 'queen-bench',
        agent: 'claude',
        title: `race ${round}`,
        problem: 'everyone wants sub-0',
        acceptance_criteria: ['one winner'],
        subtasks: [
          { title: 'contended', description: 'x', file_scope: [`src/r${round}/a.ts`, `src/r${round}/b.ts`] },
          { title: 'free', description: 'y', file_scope: [`docs/r${round}.md`] },
        ],
      });
    }
  } finally {
    colony.close();
  }

  const fleet = await Promise.all(Array.from({ length: racers }, () => connectServer(db)));
  const settle = [];
  let wrongRounds = 0;
  const unexpected = [];
  try {
    for (let round = 0; round < CONFIG.raceRounds; round++) {
      const t0 = performance.now();
      const answers = await Promise.all(
        fleet.map((server, i) =>
          server.call('task_plan_claim_subtask', {
            plan_slug: `race-${round}`,
            subtask_index: 0,
            session_id: `racer-${i}`,
            agent: i % 2 ? 'claude' : 'codex',
          }),
        ),
      );
      settle.push(performance.now() - t0);
      const codes = answers.filter((a) => a.isError).map((a) => JSON.parse(a.content?.[0]?.text ?? '{}').code);
      if (codes.length !== racers - 1) wrongRounds++;
      unexpected.push(...codes.filter((c) => c !== 'PLAN_SUBTASK_NOT_AVAILABLE'));
    }
  } finally {
    await Promise.all(fleet.map((s) => s.close()));
  }
  const busy =
    fleet.filter((s) => BUSY.test(s.stderr())).length + unexpected.filter((c) => c === 'INTERNAL_ERROR').length;
  const warm = summarize(settle.slice(1));
  details.plan_claim_race = {
    racers,
    rounds: CONFIG.raceRounds,
    first_round_ms: settle[0],
    warm_settle_ms: warm,
    rounds_without_exactly_one_winner: wrongRounds,
    unexpected_codes: unexpected.slice(0, 5),
    busy_errors_surfaced: busy,
  };
  row(
    `task_plan_claim_subtask, ${racers} processes racing one sub-task: settle time`,
    `p50 ${fmtMs(warm.p50)} / p95 ${fmtMs(warm.p95)} ms (first round ${fmtMs(settle[0])} ms)`,
    null,
    null,
  );
  row(
    `plan claim race: rounds without exactly one winner, other codes, busy errors (${CONFIG.raceRounds} rounds)`,
    `${wrongRounds} / ${unexpected.length} / ${busy}`,
    '0 / 0 / 0',
    wrongRounds === 0 && unexpected.length === 0 && busy === 0,
  );
}

// ---------------------------------------------------------------- 9. ready work

const READY_PLANS = 50;
const READY_SUBTASKS = 10;

/**
 * A plan of ten sub-tasks in three waves: six independent lanes, three that each wait
 * on two of them, and a finalizer on everything. Files are the plan's own.
 */
function readyPlan(repoRoot, p) {
  const hints = ['api_work', 'ui_work', 'infra_work', 'doc_work', 'api_work', 'ui_work'];
  const subtasks = hints.map((capability_hint, i) => ({
    title: `Lane ${i} of plan ${p}`,
    description: 'bench lane',
    file_scope: [`plans/p${p}/lane${i}.ts`],
    capability_hint,
  }));
  for (let i = 0; i < 3; i++) {
    subtasks.push({
      title: `Join ${i} of plan ${p}`,
      description: 'bench join',
      file_scope: [`plans/p${p}/join${i}.ts`],
      depends_on: [2 * i, 2 * i + 1],
      capability_hint: 'api_work',
    });
  }
  subtasks.push({
    title: `Verify plan ${p}`,
    description: 'bench finalizer',
    file_scope: [`plans/p${p}/verify.test.ts`],
    depends_on: [6, 7, 8],
    capability_hint: 'test_work',
  });
  return {
    repo_root: repoRoot,
    slug: `bench-plan-${p}`,
    session_id: 'queen-bench',
    agent: 'claude',
    title: `Bench plan ${p}`,
    problem: 'bench',
    acceptance_criteria: ['done'],
    subtasks,
  };
}

async function benchReadyForAgent() {
  log(
    `[ready] task_ready_for_agent over MCP stdio: ${READY_PLANS} published plans x ${READY_SUBTASKS} sub-tasks, ${CONFIG.readyCalls} browse calls, ${CONFIG.readyClaims} auto-claims`,
  );
  const db = join(TMP, 'ready.db');
  const repoRoot = join(TMP, 'ready-repo');
  mkdirSync(repoRoot);
  const colony = core.openColony({ home: HOME, dbPath: db, receipts: false });
  try {
    const call = async (tool, args) => {
      const out = await colony.handleToolCall(tool, args);
      if (!out.ok) throw new Error(`${tool} failed: ${out.text}`);
      return out.value;
    };
    for (let p = 0; p < READY_PLANS; p++) await call('task_plan_publish', readyPlan(repoRoot, p));
    await call('agent_upsert_profile', { agent: 'codex', capabilities: { api_work: 0.9, ui_work: 0.3 } });
    // Someone else holds a lane of every fifth plan: its claim lowers that lane's score.
    const { task_id } = await call('task_thread', {
      repo_root: repoRoot,
      branch: 'hotfix',
      session_id: 'claude-bench',
      agent: 'claude',
    });
    for (let p = 0; p < READY_PLANS; p += 5) {
      await call('task_claim_file', { task_id, session_id: 'claude-bench', file_path: `plans/p${p}/lane0.ts` });
    }
  } finally {
    colony.close();
  }

  const server = await connectServer(db);
  const browse = [];
  const claims = [];
  let sample;
  try {
    const ask = (session_id, auto_claim) =>
      server.call('task_ready_for_agent', { session_id, agent: 'codex', repo_root: repoRoot, limit: 5, auto_claim });
    for (let i = 0; i < CONFIG.warmup; i++) await ask('codex-bench', false);
    for (let i = 0; i < CONFIG.readyCalls; i++) {
      const t0 = performance.now();
      const out = await ask('codex-bench', false);
      browse.push(performance.now() - t0);
      if (out.isError) throw new Error(`task_ready_for_agent failed: ${JSON.stringify(out.content)}`);
      sample ??= JSON.parse(out.content[0].text);
    }
    // Each call from a new session claims the top sub-task in the same call.
    for (let i = 0; i < CONFIG.readyClaims; i++) {
      const t0 = performance.now();
      const out = await ask(`codex-claimer-${i}`, true);
      claims.push(performance.now() - t0);
      const payload = JSON.parse(out.content[0].text);
      if (out.isError || payload.auto_claimed?.ok !== true)
        throw new Error(`auto-claim failed: ${out.content[0].text}`);
    }
  } finally {
    await server.close();
  }
  const b = summarize(browse);
  const c = summarize(claims);
  details.ready_for_agent = {
    plans: READY_PLANS,
    subtasks_per_plan: READY_SUBTASKS,
    claimable_at_start: sample.total_available,
    browse_calls: browse.length,
    browse_ms: b,
    auto_claim_calls: claims.length,
    auto_claim_ms: c,
    response_tokens: countTokens(JSON.stringify(sample)),
  };
  row(
    `task_ready_for_agent over MCP stdio, ${READY_PLANS} plans x ${READY_SUBTASKS} sub-tasks (browse)`,
    `p50 ${fmtMs(b.p50)} / p95 ${fmtMs(b.p95)} ms`,
    null,
    null,
  );
  row(
    'task_ready_for_agent with auto_claim (ranks and claims in one call)',
    `p50 ${fmtMs(c.p50)} / p95 ${fmtMs(c.p95)} ms`,
    null,
    null,
  );
}

// ---------------------------------------------------------------- startup loop

function benchStartupLoop() {
  return benchStartup({
    core,
    tmp: TMP,
    home: HOME,
    log,
    row,
    details,
    countTokens,
    summarize,
    fmtMs,
    connectServer,
    writeFileSync,
    rounds: CONFIG.startupRounds,
    warmup: Math.min(CONFIG.warmup, 20),
  });
}

/** Sections `--only` can pick, each self-contained. */
const SECTIONS = {
  startup: benchStartupLoop,
  ready: benchReadyForAgent,
  claims: benchClaims,
  'tools-list': benchToolsList,
  runtime: () => benchRuntime({ root: ROOT, row, log, summarize, fmtMs, rounds: flags.quick ? 20 : 50 }),
};

// ---------------------------------------------------------------- main

async function main() {
  const started = performance.now();
  const machine = machineFacts();
  log(
    `colony bench (${CONFIG.mode}) on ${machine.cpu}, ${machine.cores} cores, ${machine.ram_gib} GiB, node ${machine.node}`,
  );
  log(`temp dir ${TMP}`);
  if (flags.only) {
    for (const name of flags.only.split(',')) {
      if (!SECTIONS[name]) throw new Error(`--only: no section "${name}" (${Object.keys(SECTIONS).join(', ')})`);
      await SECTIONS[name]();
    }
  } else {
    await allSections();
  }
  report(started, machine);
}

async function allSections() {
  await benchSingleInserts();

  log(`[1/6] batched inserts: building the corpus store, ${CONFIG.batch} per transaction`);
  const store = createCorpusStore();
  const [small, large] = CONFIG.sizes;
  try {
    extendCorpus(store, small);
  } finally {
    store.close();
  }
  await benchSearch(small);
  const store2 = storage.openStore({ path: DB });
  try {
    log(`[1/6] batched inserts: extending the corpus store to ${K(large)}`);
    extendCorpus(store2, large);
  } finally {
    store2.close();
  }
  const insertMs = batchStats.tokenizeMs + batchStats.insertMs;
  const batchedRate = (batchStats.notes / insertMs) * 1000;
  details.batched_inserts = {
    observations: batchStats.notes,
    per_transaction: CONFIG.batch,
    per_sec: batchedRate,
    sql_only_per_sec: (batchStats.notes / batchStats.insertMs) * 1000,
    tokenize_ms: batchStats.tokenizeMs,
    insert_ms: batchStats.insertMs,
    tokenize_share: batchStats.tokenizeMs / insertMs,
    mean_tokens_per_note: batchStats.tokens / batchStats.notes,
    mean_chars_per_note: batchStats.chars / batchStats.notes,
    corpus_generation_ms_excluded: batchStats.generateMs,
    segments: batchStats.segments.map((s) => ({
      ...s,
      per_sec: ((s.to - s.from) / (s.tokenizeMs + s.insertMs)) * 1000,
    })),
    db_bytes: statSync(DB).size,
  };
  row(
    `insert, batched (insertObservations, ${fmtRate(CONFIG.batch)}/txn, 0 -> ${K(large)})`,
    `${fmtRate(batchedRate)} /s (tokenizer ${Math.round(details.batched_inserts.tokenize_share * 100)}% of time)`,
    `>= ${fmtRate(TARGETS.batchedPerSec)} /s`,
    batchedRate >= TARGETS.batchedPerSec,
  );
  await benchSearch(large);
  await benchHybridSearch(large);
  await benchMcpRoundTrip();
  await benchColdStart();
  await benchHooks();
  await benchRss();
  await benchToolsList();
  await benchClaims();
  await benchSharedContext();
  await benchWorkQueue(CONFIG.queueConsumers);
  await benchWorkQueue(1);
  await benchReadyForAgent();
  await benchStartupLoop();
  await benchPlanRace();
  await SECTIONS.runtime();
}

function report(started, machine) {
  // Put the insert lines first, in the order of the brief.
  const order = (m) =>
    m.startsWith('insert')
      ? 0
      : m.startsWith('search') || m.startsWith('vector') || m.startsWith('task_suggest') || m.startsWith('brute')
        ? 1
        : m.startsWith('MCP')
          ? 2
          : m.startsWith('cold') || m.startsWith('hook')
            ? 3
            : /RSS/.test(m)
              ? 4
              : m.startsWith('tools/list')
                ? 5
                : 6;
  rows.sort((a, b) => order(a.measure) - order(b.measure));

  const elapsedS = (performance.now() - started) / 1000;
  const table = renderTable(
    ['measure', 'result', 'target', 'status'],
    rows.map((r) => [r.measure, r.result, r.target, r.status]),
  );
  const misses = rows.filter((r) => r.status === 'MISS').length;
  process.stdout.write(
    `\ncolony bench (${CONFIG.mode}): ${machine.cpu}, ${machine.cores} cores, ${machine.ram_gib} GiB RAM, node ${machine.node}, ${machine.date.slice(0, 10)}, ` +
      `load average ${machine.loadavg_at_start[0]} at start, ${os.loadavg()[0].toFixed(2)} at end\n\n${table}\n\n` +
      `${rows.filter((r) => r.status === 'pass').length} pass, ${misses} miss, in ${elapsedS.toFixed(0)} s` +
      `${flags.quick ? ` (quick: targets are defined at 100k; this run stops at ${K(LARGE)})` : ''}\n`,
  );

  const outDir = join(ROOT, 'bench/out');
  mkdirSync(outDir, { recursive: true });
  const file = join(
    outDir,
    `${flags.quick ? 'results-quick' : 'results'}${flags.only ? `-${flags.only.replaceAll(',', '-')}` : ''}.json`,
  );
  writeFileSync(
    file,
    `${JSON.stringify({ machine: { ...machine, loadavg_at_end: os.loadavg().map((l) => Math.round(l * 100) / 100) }, config: CONFIG, targets: TARGETS, elapsed_s: elapsedS, rows, details }, null, 2)}\n`,
  );
  process.stdout.write(`results: ${file}\n`);
  if (flags.strict && misses > 0) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  cleanup();
}
