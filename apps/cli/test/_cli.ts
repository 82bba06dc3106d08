/**
 * CLI test helpers: the built `colony` CLI run as a real OS process on one temporary
 * store, and tool calls in-process on the same store to set the scene.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openColony } from '@swarm/core';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');

export function cliStore(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = join(dir, 'colony.db');
  const home = join(dir, 'home');
  /** Runs `colony <args> --db <db> --home <home>` from `dir` (the store flags go before a `--`). */
  function colony(args: string[]) {
    const store = ['--db', db, '--home', home];
    const rest = args.indexOf('--');
    const argv = rest < 0 ? [...args, ...store] : [...args.slice(0, rest), ...store, ...args.slice(rest)];
    const result = spawnSync(process.execPath, [CLI, ...argv], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, COLONY_HOME: home, NO_COLOR: '1' },
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr, json: () => JSON.parse(result.stdout) };
  }
  /** A tool's value, called in-process on the same store. */
  async function tool(name: string, args: Record<string, unknown>) {
    const lib = openColony({ home, dbPath: db, receipts: false, roots: [tmpdir()] });
    try {
      const outcome = await lib.handleToolCall(name, args);
      if (!outcome.ok) throw new Error(outcome.text);
      return outcome.value as Record<string, unknown>;
    } finally {
      await lib.close();
    }
  }
  return { dir, colony, tool };
}
