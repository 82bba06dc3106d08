/**
 * @module swarm/background
 * `colony swarm start` on a terminal: the session runner runs as its own detached
 * process (`colony swarm start --no-tui`, a new process group with no terminal), so the
 * dashboard can close (`q`) while the session keeps running, and `colony swarm attach`
 * or `stop` reach it later as any other session. Its output goes to a file in the
 * temp folder (the repository is not touched before the runner checks it is clean).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreFlags } from '../../_colony';
import { CliError } from '../../_output';

export interface BackgroundStart {
  readonly pid: number;
  /** The runner's output file. */
  readonly output: string;
}

export interface BackgroundFlags extends StoreFlags {
  readonly repo: string;
  readonly stash?: boolean | undefined;
  readonly init?: boolean | undefined;
}

const STARTED = /session \d{8}-[0-9a-f]{4} started/;

/** Starts the runner and waits until its session has started; its failure to start is a CliError. */
export async function startInBackground(flags: BackgroundFlags, timeoutMs = 120_000): Promise<BackgroundStart> {
  const output = join(mkdtempSync(join(tmpdir(), 'colony-swarm-')), 'runner.log');
  const fd = openSync(output, 'a');
  const argv = [process.argv[1]!, 'swarm', 'start', '--no-tui', '--repo', flags.repo];
  if (flags.stash) argv.push('--stash');
  if (flags.init) argv.push('--init');
  if (flags.home) argv.push('--home', flags.home);
  if (flags.db) argv.push('--db', flags.db);
  const child = spawn(process.execPath, argv, { detached: true, stdio: ['ignore', fd, fd] });
  child.unref();
  let exit: number | null = null;
  child.on('exit', (code, signal) => {
    exit = code ?? (signal ? 1 : 0);
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = readFileSync(output, 'utf8');
    if (STARTED.test(text)) return { pid: child.pid!, output };
    if (exit !== null) {
      const lines = text.trim().split('\n');
      throw new CliError(lines.at(-1)?.replace(/^colony: /, '') || `the session runner exited with code ${exit}`);
    }
    if (Date.now() > deadline) throw new CliError(`the session did not start in time; see ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
