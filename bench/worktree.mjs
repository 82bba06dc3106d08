#!/usr/bin/env node
/**
 * Runtime (seed 004) benchmarks, standalone: `node bench/worktree.mjs [--keep]` after a
 * build (`pnpm turbo run build --filter=@swarm/mcp-server...`). Imports the BUILT
 * @swarm/worktree and spawns the built colony-mcp, so it measures what ships.
 *
 *   1. fork: 20 worktrees (workspace_fork's path: forkWorkspaces, one branch each) of a
 *      10,000-file repository, cold (empty pool: a fresh checkout each) and warm (taken
 *      from the pool that workspace_destroy refills), plus the destroy into the pool and
 *      a plain removal. Target: under 2 s in total on a 2-core machine.
 *   2. swarm overhead per task: a swarm of N tasks running `true` (worktree, run,
 *      auto-commit check, clean-up) minus the same N bare commands. Target: < 150 ms.
 *   3. MCP calls of the 5-worker job (fork, env, run, merge, destroy) through the real
 *      SDK client: counted tools/call requests, against the seed's ~123.
 *
 * Prints a table and writes bench/out/results-worktree.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
const wt = await import(pathToFileURL(join(ROOT, 'packages/worktree/dist/index.js')).href);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');

const TARGETS = { fork20Ms: 2000, overheadMs: 150, mcpCalls: 2 };
const ID = { GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
const tmp = realpathSync(mkdtempSync(join(os.tmpdir(), 'colony-bench-wt-')));
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: { ...process.env, ...ID }, encoding: 'utf8' });

/** A repository with `files` small files in folders of 100, one commit on main. */
function makeRepo(name, files) {
  const root = join(tmp, name);
  mkdirSync(root);
  git(root, 'init', '-q', '-b', 'main');
  for (let i = 0; i < files; i++) {
    const dir = join(root, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir);
    writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
  }
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

const results = { machine: machine(), load_at_start: os.loadavg().map((l) => Math.round(l * 100) / 100) };

// 1. Fork 20 worktrees of a 10,000-file repository: cold (empty pool: every file
// written), destroyed through workspace_destroy's path (into the pool), then warm (the
// 20 taken from the pool, one new commit on main so some files differ).
{
  const root = makeRepo('big', 10_000);
  const repo = await wt.openRepo(root);
  const cold = Array.from({ length: 20 }, (_, i) => `ws-${i + 1}`);
  const t0 = performance.now();
  await wt.forkWorkspaces(repo, 'HEAD', cold);
  const coldMs = performance.now() - t0;
  const t1 = performance.now();
  await wt.destroyWorkspaces(await wt.colonyWorktrees(repo), true);
  const destroyMs = performance.now() - t1;
  const pooled = wt.poolSlots(repo).length;
  // main moves on: 100 files change, so a warm fork rewrites those (and only those).
  for (let i = 0; i < 100; i++) writeFileSync(join(root, `d${i}`, `f${i * 100}.txt`), `changed ${i}\n`);
  git(root, 'commit', '-q', '-am', 'move on');
  const warm = Array.from({ length: 20 }, (_, i) => `ws-${i + 21}`);
  const t2 = performance.now();
  await wt.forkWorkspaces(repo, 'HEAD', warm);
  const warmMs = performance.now() - t2;
  const taken = pooled - wt.poolSlots(repo).length;
  const t3 = performance.now();
  for (const w of await wt.colonyWorktrees(repo)) await wt.removeWorktree(repo, w.workspace_id, { force: true });
  const removeMs = performance.now() - t3;
  // The floor: plain `git worktree add` of the same 20, one after another.
  const t4 = performance.now();
  for (const name of cold) git(root, 'worktree', 'add', '-q', '-b', `plain/${name}`, join(tmp, 'plain', name), 'HEAD');
  const plainMs = performance.now() - t4;
  results.fork = {
    files: 10_000,
    worktrees: 20,
    cold_total_ms: round(coldMs),
    warm_total_ms: round(warmMs),
    warm_taken_from_pool: taken,
    warm_per_worktree_ms: round(warmMs / 20),
    destroy_into_pool_ms: round(destroyMs),
    remove_all_ms: round(removeMs),
    plain_git_sequential_ms: round(plainMs),
  };
}

// 2. Swarm overhead per task over the bare command.
{
  const root = makeRepo('small', 100);
  const tasks = 8;
  const t0 = performance.now();
  for (let i = 0; i < tasks; i++) await wt.runCommand(root, 'true', { timeoutMs: 10_000 });
  const bareMs = performance.now() - t0;
  const spec = {
    repo_root: root,
    base_ref: 'HEAD',
    tasks: Array.from({ length: tasks }, (_, i) => ({ name: `t${i}`, command: 'true' })),
    max_parallel: 1,
    timeout_secs: 60,
    cleanup: true,
  };
  const t1 = performance.now();
  const prepared = await wt.prepareSwarm(spec);
  await wt.runPrepared(prepared, 'swarm-bench-overhead');
  const swarmMs = performance.now() - t1;
  results.overhead = {
    tasks,
    max_parallel: 1,
    bare_total_ms: round(bareMs),
    swarm_total_ms: round(swarmMs),
    per_task_ms: round((swarmMs - bareMs) / tasks),
  };
}

// 3. MCP calls of the 5-worker job over the real SDK client.
{
  const root = makeRepo('mcp', 100);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'apps/mcp-server/dist/main.js'), '--db', join(tmp, 'colony.db'), '--allow-exec'],
    env: { ...process.env, COLONY_HOME: join(tmp, 'home') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  let calls = 0;
  const call = async (name, args) => {
    calls++;
    const r = await client.callTool({ name, arguments: args });
    return JSON.parse(r.content[0].text);
  };
  const t0 = performance.now();
  const out = await call('swarm_run', {
    repo_root: root,
    tasks: Array.from({ length: 5 }, (_, i) => ({ name: `w${i}`, command: `echo ${i} > w${i}.txt` })),
    env_vars: { API_KEY: 'sk-bench' },
    merge_strategy: 'branch-per-source',
    merge_target: 'main',
    max_parallel: 5,
  });
  const ms = performance.now() - t0;
  await client.close();
  results.mcp = {
    workers: 5,
    tool_calls: calls,
    seed_primitive_flow_calls: 123,
    succeeded: out.summary.succeeded,
    merged: out.merge.results.filter((m) => m.success).length,
    elapsed_ms: round(ms),
    note: 'colony needs no workspace_prepare: the seed counts 2 calls (prepare + swarm_run); colony makes 1',
  };
}
results.load_at_end = os.loadavg().map((l) => Math.round(l * 100) / 100);

const rows = [
  [
    'fork 20 x 10k files, warm pool',
    `${results.fork.warm_total_ms} ms (${results.fork.warm_taken_from_pool}/20 pooled)`,
    `< ${TARGETS.fork20Ms} ms`,
    results.fork.warm_total_ms < TARGETS.fork20Ms && results.fork.warm_taken_from_pool === 20,
  ],
  [
    'fork 20 x 10k files, cold',
    `${results.fork.cold_total_ms} ms (plain git: ${results.fork.plain_git_sequential_ms} ms)`,
    `< ${TARGETS.fork20Ms} ms`,
    results.fork.cold_total_ms < TARGETS.fork20Ms,
  ],
  [
    'swarm overhead per task',
    `${results.overhead.per_task_ms} ms`,
    `< ${TARGETS.overheadMs} ms`,
    results.overhead.per_task_ms < TARGETS.overheadMs,
  ],
  [
    'MCP calls, 5-worker job',
    `${results.mcp.tool_calls} (seed: ~123)`,
    `<= ${TARGETS.mcpCalls}`,
    results.mcp.tool_calls <= TARGETS.mcpCalls,
  ],
];
for (const [what, got, target, ok] of rows)
  console.log(`${ok ? 'ok  ' : 'MISS'}  ${what.padEnd(30)} ${got.padEnd(34)} target ${target}`);
console.log(
  `load ${results.load_at_start.join(' ')} -> ${results.load_at_end.join(' ')} (${results.machine.cores} cores)`,
);
mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
writeFileSync(join(ROOT, 'bench/out/results-worktree.json'), `${JSON.stringify(results, null, 2)}\n`);
if (values.keep) console.log(`kept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });

function round(ms) {
  return Math.round(ms * 10) / 10;
}

function machine() {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? os.cpus().length,
    node: process.version,
    git: execFileSync('git', ['--version'], { encoding: 'utf8' }).trim(),
    date: new Date().toISOString(),
  };
}
