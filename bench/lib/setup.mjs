/**
 * What every bench phase shares: the flags, the run's sizes and targets, the BUILT
 * packages (packages/x/dist) and servers, the temp dir and its cleanup, the result rows,
 * and an SDK client on a freshly spawned colony-mcp.
 */

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildVocabulary } from './corpus.mjs';
import { killAllChildren, trackPid, withTimeout } from './util.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const { values: flags } = parseArgs({
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

export const CONFIG = flags.quick
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
export const LARGE = CONFIG.sizes.at(-1);

export const TARGETS = {
  batchedPerSec: 20_000,
  searchP50Ms: 2,
  searchP95Ms: 5,
  mcpP50Ms: 3,
  coldStartMs: 150,
  idleRssMiB: 45,
};

// ---------------------------------------------------------------- the built artefacts

export const DIST = {
  storage: join(ROOT, 'packages/storage/dist/index.js'),
  coordination: join(ROOT, 'packages/coordination/dist/index.js'),
  core: join(ROOT, 'packages/core/dist/index.js'),
  mcpMain: join(ROOT, 'apps/mcp-server/dist/main.js'),
  cli: join(ROOT, 'apps/cli/dist/cli.js'),
};
export const missing = Object.values(DIST).filter((p) => !existsSync(p));
if (missing.length > 0) {
  process.stderr.write(`bench: not built (${missing.join(', ')}): run \`pnpm build\` or \`pnpm bench\`\n`);
  process.exit(2);
}
export const storage = await import(pathToFileURL(DIST.storage).href);
export const coordination = await import(pathToFileURL(DIST.coordination).href);
export const core = await import(pathToFileURL(DIST.core).href);
export const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
export const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
// The very tokenizer colony resolves (gpt-tokenizer is a dependency of @swarm/coordination).
export const { countTokens } = createRequire(join(ROOT, 'packages/coordination/package.json'))(
  'gpt-tokenizer/encoding/cl100k_base',
);

// ---------------------------------------------------------------- temp dir and cleanup

export const TMP = mkdtempSync(join(os.tmpdir(), 'colony-bench-'));
export const HOME = join(TMP, 'home');
mkdirSync(HOME);
export let cleaned = false;
export function cleanup() {
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

export const rows = [];
export const details = {};
export const log = (line) => process.stderr.write(`${line}\n`);

/** One table line. `pass` is true/false against a target, or null for information only. */
export function row(measure, result, target, pass) {
  rows.push({ measure, result, target: target ?? '-', status: pass === null ? 'info' : pass ? 'pass' : 'MISS' });
}

export const vocabulary = buildVocabulary();
export const K = (n) => (n >= 1000 ? `${n / 1000}k` : String(n));

export const BUSY = /SQLITE_BUSY|database is locked/i;

/** An SDK client on a freshly spawned colony-mcp (with more environment, e.g. COLONY_CLOCK_FILE), stderr collected. */
/** A colony-mcp process on `db`; `flags` adds command-line flags (e.g. `--root <dir>`). */
export async function connectServer(db, env, flags = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DIST.mcpMain, '--db', db, '--home', HOME, ...flags],
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
