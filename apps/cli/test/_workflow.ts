/**
 * Helpers for the workflow and iterate tests: a temp git repository with
 * `.colony/workflows/` and a COLONY_HOME (runtime settings with a scripted agent), the
 * built CLI run as real processes (sync, or spawned to be killed), and a wait on a
 * condition, bounded.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git } from './_repo';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');

export interface WorkflowRepo {
  readonly repo: string;
  readonly home: string;
  write(path: string, text: string): void;
  // biome-ignore lint/suspicious/noExplicitAny: the CLI's JSON, read field by field in the tests
  colony(args: string[]): { code: number | null; stdout: string; stderr: string; json: () => any };
  spawn(args: string[]): ChildProcess;
}

export function workflowRepo(settings: Record<string, unknown> = {}): WorkflowRepo {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'colony-wf-')));
  const repo = join(dir, 'repo');
  const home = join(dir, 'home');
  mkdirSync(repo);
  mkdirSync(home);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'init');
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ version: 2, [repo]: settings }));
  const env = { ...process.env, COLONY_HOME: home, NO_COLOR: '1' };
  const write = (path: string, text: string) => {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const colony = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd: repo, encoding: 'utf8', env, timeout: 30_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
  };
  const spawnCli = (args: string[]) => spawn(process.execPath, [CLI, ...args], { cwd: repo, env, stdio: 'ignore' });
  return { repo, home, write, colony, spawn: spawnCli };
}

export async function until<T>(fn: () => T | false | undefined, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether a live (not zombie) process is left in group `pgid` (reads /proc: Linux). */
export function groupAlive(pgid: number): boolean {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

/** A workflow with a command stage, a check gate, an approval gate and a last command. */
export const SHIP = `
name: ship
inputs: [issue]
stages:
  - name: build
    type: command
    command: "echo building {{inputs.issue}} > built.txt && echo built"
  - name: check
    type: check
    argv: [test, -f, built.txt]
    depends_on: [build]
  - name: review
    type: approval
    depends_on: [check]
  - name: release
    type: command
    command: "cat built.txt"
    depends_on: [review]
`;
