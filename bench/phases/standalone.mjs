/**
 * @module phases/standalone
 * Probes that run as their own processes (they spawn dozens of servers or git
 * processes and keep their own tables): bench/worktree.mjs (worktree fork time, swarm
 * overhead per task, the MCP call count of the 5-worker job) and bench/store-writepath.mjs
 * (first call, task_post over MCP, the 8-process claim race, 64 cold processes). Each
 * prints its table and writes its own JSON under bench/out/.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('..', import.meta.url));

/** Runs `node bench/<script> ...args` with this terminal; rejects on a non-zero exit. */
function runScript(script, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(BENCH, script), ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${script} ended with ${signal ?? `exit ${code}`}`)),
    );
  });
}

export function benchWorktree() {
  return runScript('worktree.mjs', []);
}

export function benchStoreWritePath(quick) {
  return runScript('store-writepath.mjs', [
    ...(quick ? ['--quick'] : []),
    '--json',
    join(BENCH, 'out', quick ? 'results-writepath-quick.json' : 'results-writepath.json'),
  ]);
}
