#!/usr/bin/env node
/**
 * The Postgres column of issue 18: the same lines on the embedded SQLite store and on one
 * PostgreSQL, with colony-mcp server processes (built: `pnpm build` first) sharing the store.
 *
 *   node bench/postgres.mjs [--posts N] [--rounds R] [--servers S] [--server PATH] [--json FILE]
 *
 * - round: the standard two-agent round (bench/lib/token-round.mjs: 21 calls, two servers),
 *   wall time of the round on a fresh store with the search notes in it; median of 3.
 * - post: `task_post` throughput with S servers (default 3) posting at once, each its own
 *   session on one task thread, N posts in all (default 1,500); and each server's CPU per call.
 * - race: S servers claim one plan sub-task at once, R rounds (default 20): settle time
 *   (first call fired -> last answer), exactly one winner, no other code.
 *
 * The PostgreSQL server is a throwaway cluster (test/support/pg-cluster.mjs) with its
 * default durability (fsync and synchronous commit on); SQLite runs as colony runs it
 * (WAL, synchronous=NORMAL). Both backends run the same calls on this machine in turn.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { psqlQuery, startCluster } from '../test/support/pg-cluster.mjs';
import { callTool, publishRaceRounds, raceRound } from './lib/race.mjs';
import { runStandardRound, seedSearchNotes } from './lib/token-round.mjs';
import { cpuMsOf, killAllChildren, median, RawRpc, spawnTracked, stopChild, summarize } from './lib/util.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    posts: { type: 'string', default: '1500' },
    rounds: { type: 'string', default: '20' },
    servers: { type: 'string', default: '3' },
    server: { type: 'string' },
    json: { type: 'string' },
  },
});
const SERVER = flags.server ? resolve(flags.server) : join(ROOT, 'apps/mcp-server/dist/main.js');
const SERVERS = Number(flags.servers);
const TMP = mkdtempSync(join(os.tmpdir(), 'colony-bench-pg-'));
const HOME = join(TMP, 'home');
mkdirSync(HOME);
let repos = 0;
/** A fresh repository root per store (task_plan_publish writes its CHANGE.md there). */
function freshRepo() {
  const repo = join(TMP, `repo-${++repos}`);
  mkdirSync(repo);
  return repo;
}

function spawnServer(db, repo) {
  const child = spawnTracked(process.execPath, [SERVER, '--db', db, '--root', repo], {
    env: { ...process.env, COLONY_HOME: HOME, COLONY_DATABASE_URL: '' },
    cwd: TMP,
  });
  const rpc = new RawRpc(child);
  return { rpc, child };
}

async function fleet(db, n, repo) {
  const servers = Array.from({ length: n }, () => spawnServer(db, repo));
  await Promise.all(servers.map((s) => s.rpc.initialize()));
  return servers;
}

const stopAll = (servers) => Promise.all(servers.map((s) => stopChild(s.child, 15_000)));

const call = callTool;

const caller = (rpc) => async (tool, args) => {
  const r = await call(rpc, tool, args);
  if (r.isError) throw new Error(`${tool}: ${r.text}`);
  return r.text;
};

async function benchRound(freshDb) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const db = await freshDb(`round-${i}`);
    const repo = freshRepo();
    const servers = await fleet(db, 2, repo);
    try {
      const [claude, codex] = servers.map((s) => caller(s.rpc));
      await seedSearchNotes({ call: claude, repoRoot: repo });
      // Both servers warm (the first call of a process loads its tools): the round is their work.
      await Promise.all(servers.map((s) => call(s.rpc, 'task_list', { limit: 1 })));
      const t0 = performance.now();
      const round = await runStandardRound({ claude, codex, repoRoot: repo, countTokens: () => 0 });
      times.push(performance.now() - t0);
      if (round.steps.length < 20) throw new Error(`the round made ${round.steps.length} calls`);
    } finally {
      await stopAll(servers);
    }
  }
  return { round_ms: summarize(times), median_ms: median(times) };
}

async function benchPost(db) {
  const repo = freshRepo();
  const servers = await fleet(db, SERVERS, repo);
  try {
    const first = await call(servers[0].rpc, 'task_thread', {
      repo_root: repo,
      branch: 'main',
      session_id: 'poster-0',
      agent: 'codex',
    });
    if (first.isError) throw new Error(`task_thread: ${first.text}`);
    const taskId = first.payload.task_id;
    for (const [i, s] of servers.entries()) {
      const joined = await call(s.rpc, 'task_thread', {
        repo_root: repo,
        branch: 'main',
        session_id: `poster-${i}`,
        agent: 'codex',
      });
      if (joined.isError) throw new Error(`task_thread: ${joined.text}`);
    }
    const post = (i, n) => ({
      task_id: taskId,
      session_id: `poster-${i}`,
      kind: 'note',
      content: `note ${n}: the write path keeps receipts off the lock and answers lost claims at once`,
    });
    for (const [i, s] of servers.entries()) for (let n = 0; n < 10; n++) await call(s.rpc, 'task_post', post(i, n));
    const each = Math.ceil(Number(flags.posts) / SERVERS);
    const cpu0 = servers.map((s) => cpuMsOf(s.child.pid));
    const t0 = performance.now();
    await Promise.all(
      servers.map(async (s, i) => {
        for (let n = 0; n < each; n++) {
          const r = await call(s.rpc, 'task_post', post(i, n));
          if (r.isError) throw new Error(`task_post: ${r.text}`);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpu = servers.map((s, i) => {
      const now = cpuMsOf(s.child.pid);
      return now === null || cpu0[i] === null ? null : ((now - cpu0[i]) * 1000) / each;
    });
    return {
      servers: SERVERS,
      calls: each * SERVERS,
      per_second: (each * SERVERS) / seconds,
      server_cpu_us_per_call: cpu,
    };
  } finally {
    await stopAll(servers);
  }
}

async function benchRace(db) {
  const rounds = Number(flags.rounds);
  const repo = freshRepo();
  const servers = await fleet(db, SERVERS, repo);
  try {
    const queen = servers[0].rpc;
    await publishRaceRounds(queen, repo, rounds + 1);
    for (const s of servers) await call(s.rpc, 'task_list', { limit: 1 });
    const settle = [];
    let wrongRounds = 0;
    const unexpected = [];
    const rpcs = servers.map((s) => s.rpc);
    for (let round = 0; round <= rounds; round++) {
      const r = await raceRound(rpcs, round);
      if (round > 0) settle.push(r.ms);
      if (!r.oneWinner) wrongRounds++;
      unexpected.push(...r.unexpected);
    }
    return {
      servers: SERVERS,
      rounds,
      settle_ms: summarize(settle),
      median_ms: median(settle),
      rounds_without_exactly_one_winner: wrongRounds,
      unexpected_codes: unexpected,
    };
  } finally {
    await stopAll(servers);
  }
}

/**
 * On PostgreSQL: what the servers wrote is in its tables (a server that took the URL for
 * a file name would leave them empty), every session and, for the posts, every post.
 */
function checkWritten(db, result) {
  if (!db.startsWith('postgres')) return result;
  const count = (table) => Number(psqlQuery(db, `SELECT count(*) FROM ${table}`));
  const sessions = count('sessions');
  const posts = result.calls === undefined ? 0 : count('observations');
  if (sessions === 0 || posts < (result.calls ?? 0)) {
    throw new Error(`the servers did not write to PostgreSQL (${sessions} sessions, ${posts} observations)`);
  }
  return result;
}

/** Runs each line on fresh stores of one backend; a line that fails records its error. */
async function measure(freshDb) {
  const dbs = [];
  const fresh = async (name) => {
    const db = await freshDb(name);
    dbs.push(db);
    return db;
  };
  const out = {};
  for (const [name, run] of [
    ['standard_round', () => benchRound(fresh)],
    ['task_post', async () => benchPost(await fresh('post'))],
    ['claim_race', async () => benchRace(await fresh('race'))],
  ]) {
    dbs.length = 0;
    try {
      const result = await run();
      for (const db of dbs) checkWritten(db, name === 'task_post' ? result : {});
      out[name] = result;
    } catch (error) {
      out[name] = { error: String(error.message ?? error).slice(0, 400) };
    }
  }
  return out;
}

const results = { server: SERVER, node: process.version, load_at_start: os.loadavg(), config: { ...flags } };
let cluster;
try {
  results.sqlite = await measure(async (name) => join(TMP, `${name}.db`));
  cluster = startCluster({ durable: true, maxConnections: 100 });
  results.postgres = await measure(() => cluster.database());
  results.load_at_end = os.loadavg();
  const text = JSON.stringify(results, null, 2);
  process.stdout.write(`${text}\n`);
  const line = (label, pick) =>
    process.stderr.write(
      `${label.padEnd(44)} ${String(pick(results.sqlite)).padStart(14)} ${String(pick(results.postgres)).padStart(14)}\n`,
    );
  const ms = (x) => (x === undefined ? 'error' : `${x.toFixed(1)} ms`);
  process.stderr.write(`${'line'.padEnd(44)} ${'SQLite'.padStart(14)} ${'PostgreSQL'.padStart(14)}\n`);
  line('standard round (21 calls, 2 servers), median', (r) => ms(r.standard_round.median_ms));
  line(`task_post/s, ${SERVERS} servers at once`, (r) => r.task_post.per_second?.toFixed(0) ?? 'error');
  line(`claim race, ${SERVERS} servers: settle median`, (r) => ms(r.claim_race.median_ms));
  line(
    'claim race: rounds without exactly one winner',
    (r) => r.claim_race.rounds_without_exactly_one_winner ?? 'error',
  );
  if (flags.json) {
    mkdirSync(dirname(resolve(flags.json)), { recursive: true });
    writeFileSync(flags.json, text);
  }
} finally {
  killAllChildren();
  cluster?.stop();
  rmSync(TMP, { recursive: true, force: true });
}
