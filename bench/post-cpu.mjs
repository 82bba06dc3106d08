#!/usr/bin/env node
/**
 * `task_post` CPU per call in one process, without the stdio transport: the registry, the
 * services, the store and the receipts, under the V8 flags colony-mcp sets for itself
 * (`leanV8`: young generation kept small, later tier-up, no Sparkplug). Process CPU time
 * (every thread) moves far less with the machine's load than the MCP line's throughput,
 * so this is the line to compare two builds on a shared machine:
 *
 *   node bench/post-cpu.mjs [--posts N] [--pairs K] [ROOT ...]
 *
 * Each ROOT is a built checkout (default: this one); runs alternate ROOT by ROOT, K
 * times, each in a fresh child process on a fresh store, after 300 warm-up posts.
 * Prints each run and the median per ROOT.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(import.meta.url);
const { values: flags, positionals } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    posts: { type: 'string', default: '3000' },
    pairs: { type: 'string', default: '4' },
    child: { type: 'string' },
  },
  allowPositionals: true,
});

if (flags.child) await child(flags.child, Number(flags.posts));
else await parent();

async function parent() {
  const roots = (positionals.length > 0 ? positionals : [join(HERE, '..', '..')]).map((r) => resolve(r));
  // The flags colony-mcp sets for itself (leanV8), from this checkout's build.
  const serve = pathToFileURL(join(HERE, '..', '..', 'packages/core/dist/serve/index.js')).href;
  const lean = (await import(serve)).leanV8Flags();
  const runs = new Map(roots.map((r) => [r, []]));
  console.log(
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}  node ${process.version}  posts ${flags.posts}`,
  );
  for (let i = 0; i < Number(flags.pairs); i++) {
    for (const root of roots) {
      const out = spawnSync(process.execPath, [...lean, HERE, '--child', root, '--posts', String(flags.posts)], {
        encoding: 'utf8',
        timeout: 300_000,
        killSignal: 'SIGKILL',
      });
      if (out.status !== 0) throw new Error(`${root}: exit ${out.status} ${out.signal ?? ''}\n${out.stderr}`);
      const us = Number(out.stdout.trim());
      runs.get(root).push(us);
      console.log(`${root.padEnd(24)} ${us.toFixed(1)} us/call`);
    }
  }
  for (const [root, list] of runs) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(
      `median ${root.padEnd(24)} ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} us/call (${sorted.map((x) => x.toFixed(0)).join(' ')})`,
    );
  }
  console.log(
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

async function child(root, posts) {
  const { openColony } = await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href);
  const dir = mkdtempSync(join(os.tmpdir(), 'colony-post-cpu-'));
  try {
    const home = join(dir, 'home');
    const repo = join(dir, 'repo');
    mkdirSync(home);
    mkdirSync(repo);
    const colony = openColony({ home, dbPath: join(dir, 'colony.db') });
    const thread = await colony.handleToolCall('task_thread', {
      repo_root: repo,
      branch: 'main',
      session_id: 's1',
      agent: 'codex',
    });
    if (!thread.ok) throw new Error(`task_thread: ${thread.text}`);
    const post = (i) =>
      colony.handleToolCall('task_post', {
        task_id: thread.value.task_id,
        session_id: 's1',
        kind: 'note',
        content: `note ${i}: the write path keeps receipts off the lock and answers lost claims at once`,
      });
    for (let i = 0; i < 300; i++) await post(i);
    const start = process.cpuUsage();
    for (let i = 0; i < posts; i++) {
      const r = await post(i);
      if (!r.ok) throw new Error(`task_post: ${r.text}`);
    }
    const used = process.cpuUsage(start);
    process.stdout.write(`${(used.user + used.system) / posts}\n`);
    await colony.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
