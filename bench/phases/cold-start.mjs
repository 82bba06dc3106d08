import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG, DIST, details, HOME, log, row, TARGETS, TMP } from '../lib/setup.mjs';
import { fmtMs, INITIALIZE_PARAMS, RawRpc, spawnTracked, stopChild, summarize } from '../lib/util.mjs';
import { DB } from './inserts.mjs';

// ---------------------------------------------------------------- 4. cold start

export const SERVERS = {
  'colony-mcp (apps/mcp-server/dist/main.js)': () => [DIST.mcpMain, '--db', DB, '--home', HOME],
  'colony mcp (apps/cli/dist/cli.js mcp)': () => [DIST.cli, 'mcp', '--db', DB, '--home', HOME],
};
export const BARE_NODE = [
  '-e',
  'process.stdin.once("data",()=>process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:1,result:{}})+"\\n"))',
];

/** Spawn -> the initialize answer on stdout, over raw JSON-RPC written right after spawn. */
export async function coldStartOnce(args) {
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
export async function firstCallOnce(args) {
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

export async function benchColdStart() {
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
export async function hookOnce(event, payload) {
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
export async function benchHooks() {
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
