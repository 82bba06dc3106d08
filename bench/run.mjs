#!/usr/bin/env node
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
/**
 * colony benchmarks. Run from the repo root: `pnpm bench` (builds, then runs this), or
 * `node bench/run.mjs [--quick] [--keep] [--strict]` on an existing build.
 *
 *   --quick   smaller corpus (5k/20k), fewer queries and runs: a smoke run in ~1 minute
 *   --keep    keep the temp dir (stores, logs) and print its path
 *   --strict  exit 1 when a target is missed (default: report only)
 *   --only S  run only these sections (comma-separated: startup, ready, claims, tools-list,
 *             framework, plan-race, worktree, store-writepath, postgres); the others need the corpus
 *             the full run builds first
 *
 * One file per phase under bench/phases/ (inserts and the corpus, search, mcp, cold-start
 * with hooks, rss, tools-list, claims, framework, plan-race, ready, startup; standalone runs
 * bench/worktree.mjs and bench/store-writepath.mjs as their own processes); what they
 * share (flags, sizes, targets, the built packages, the temp dir, the result rows) is
 * bench/lib/setup.mjs. This file runs them in order and writes the report.
 *
 * Imports the BUILT packages (packages/x/dist) and spawns the built servers, so it
 * measures what ships. Prints a table and writes bench/out/results.json. Timing lives
 * here and only here: tests never assert on time.
 */
import os from 'node:os';
import { join } from 'node:path';
import { benchRuntime } from './lib/runtime-bench.mjs';
import { benchRuntimeSession } from './lib/runtime-session-bench.mjs';
import {
  CONFIG,
  cleanup,
  details,
  flags,
  K,
  LARGE,
  log,
  ROOT,
  row,
  rows,
  storage,
  TARGETS,
  TMP,
} from './lib/setup.mjs';
import { fmtMs, fmtRate, machineFacts, renderTable, summarize } from './lib/util.mjs';
import { benchClaims } from './phases/claims.mjs';
import { benchColdStart, benchHooks } from './phases/cold-start.mjs';
import { benchSharedContext, benchWorkQueue } from './phases/framework.mjs';
import { batchStats, benchSingleInserts, createCorpusStore, DB, extendCorpus } from './phases/inserts.mjs';
import { benchMcpRoundTrip } from './phases/mcp.mjs';
import { benchPlanRace } from './phases/plan-race.mjs';
import { benchReadyForAgent } from './phases/ready.mjs';
import { benchRss } from './phases/rss.mjs';
import { benchHybridSearch, benchSearch } from './phases/search.mjs';
import { benchPostgres, benchStoreWritePath, benchWorktree } from './phases/standalone.mjs';
import { benchStartupLoop } from './phases/startup.mjs';
import { benchToolsList } from './phases/tools-list.mjs';

const SECTIONS = {
  startup: benchStartupLoop,
  ready: benchReadyForAgent,
  claims: benchClaims,
  'tools-list': benchToolsList,
  framework: async () => {
    await benchSharedContext();
    await benchWorkQueue(CONFIG.queueConsumers);
    await benchWorkQueue(1);
  },
  'plan-race': benchPlanRace,
  worktree: benchWorktree,
  'store-writepath': () => benchStoreWritePath(flags.quick),
  postgres: () => benchPostgres(flags.quick),
  runtime: async () => {
    const options = { root: ROOT, row, log, summarize, fmtMs, rounds: flags.quick ? 20 : 50 };
    await benchRuntime(options);
    await benchRuntimeSession(options);
  },
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
  await benchStoreWritePath(flags.quick);
  await benchPostgres(flags.quick);
  await benchWorktree();
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
