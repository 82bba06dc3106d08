/**
 * Helpers for the swarm session tests: a temp git repository and COLONY_HOME with the
 * runtime's settings pointing at a fake Anthropic server on 127.0.0.1, the built CLI
 * spawned as real processes (`colony swarm start` in the background), and waiting on
 * its output or `colony swarm status --json`. The store is `home/colony.db`, or the
 * `db` given (a `postgres://` URL).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectColony } from '@swarm/core';
import { git } from './_repo';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(ROOT, 'apps/cli/dist/cli.js');
const WORKER = join(ROOT, 'apps/worker/dist/main.js');

export interface SwarmFixture {
  /** The temp folder holding repo/ and home/ (not a repository: a cwd for --repo). */
  readonly dir: string;
  readonly repo: string;
  readonly home: string;
  /** What every command gets as `--db`: a SQLite path or a PostgreSQL URL. */
  readonly db: string;
  /** Runs the CLI asynchronously (the fake server lives in this process and must keep answering), in `cwd` (default the repo). */
  colony(args: string[], cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string }>;
  start(args?: string[], cwd?: string): StartedCli;
  /** A long-running CLI command (`logs --follow`) in `cwd` (default the repo). */
  spawn(args: string[], cwd?: string): StartedCli;
  /** The same session runner as its own binary, `colony-worker`. */
  worker(args?: string[]): StartedCli;
  status(): Promise<SwarmStatusJson>;
  tool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Publishes plan `demo` in the repo as the planner, commits what publishing wrote, and answers the publish. */
  publishDemoPlan(plan: {
    problem: string;
    acceptance_criteria: string[];
    subtasks: unknown[];
  }): Promise<Record<string, unknown>>;
  git(...args: string[]): string;
}

export interface SwarmStatusJson {
  session: { id: string; active: boolean; pid: number } | null;
  agents: {
    name: string;
    state: string;
    session_seq: number;
    consecutive_errors: number;
    total_errors: number;
    stop_reason: string | null;
  }[];
  plans: { available: number; claimed: number; completed: number };
}

export interface StartedCli {
  readonly child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  exited(): Promise<number | null>;
}

export function swarmFixture(
  settings: (repo: string) => Record<string, unknown>,
  options: { readonly db?: string } = {},
): SwarmFixture {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarm-e2e-')));
  const repo = join(dir, 'repo');
  const home = join(dir, 'home');
  const db = options.db ?? join(home, 'colony.db');
  mkdirSync(repo);
  mkdirSync(home);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# demo\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'init');
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ version: 2, [repo]: settings(repo) }, null, 2));
  const env = {
    ...process.env,
    COLONY_HOME: home,
    NO_COLOR: '1',
    FAKE_ANTHROPIC_KEY: 'test-key',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  const colony = (args: string[], cwd = repo) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args, '--db', db, '--home', home], { cwd, env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
  const spawnCli = (args: string[], cwd = repo) =>
    watch(
      spawn(process.execPath, [CLI, ...args, '--db', db, '--home', home], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  return {
    dir,
    repo,
    home,
    db,
    colony,
    start: (args = [], cwd = repo) => spawnCli(['swarm', 'start', '--no-tui', ...args], cwd),
    spawn: spawnCli,
    worker(args = []) {
      return watch(
        spawn(process.execPath, [WORKER, ...args, '--db', db, '--home', home], {
          cwd: repo,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
    },
    async status() {
      const r = await colony(['swarm', 'status', '--json']);
      if (r.code !== 0) throw new Error(`status failed: ${r.stderr}`);
      return JSON.parse(r.stdout) as SwarmStatusJson;
    },
    async tool(name, args) {
      const lib = await connectColony({ home, dbPath: db, receipts: false, roots: [repo] });
      try {
        const outcome = await lib.handleToolCall(name, args);
        if (!outcome.ok) throw new Error(outcome.text);
        return outcome.value as Record<string, unknown>;
      } finally {
        await lib.close();
      }
    },
    async publishDemoPlan(plan) {
      const answer = await this.tool('task_plan_publish', {
        repo_root: repo,
        slug: 'demo',
        session_id: 'sess_planner',
        agent: 'claude',
        title: 'Demo',
        ...plan,
      });
      if (this.git('status', '--porcelain') !== '') {
        this.git('add', '-A');
        this.git('commit', '-qm', 'plan');
      }
      return answer;
    },
    git: (...args) => spawnSync('git', args, { cwd: repo, encoding: 'utf8', env }).stdout.trim(),
  };
}

function watch(child: ChildProcess): StartedCli {
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    async waitFor(pattern, ms = 15_000) {
      const t0 = Date.now();
      while (!pattern.test(out)) {
        if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${pattern}; output:\n${out}`);
        if (child.exitCode !== null) throw new Error(`start exited ${child.exitCode}; output:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    exited: () => exit,
  };
}

export async function until<T>(fn: () => Promise<T | undefined | false>, ms = 15_000, what = 'condition'): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The agent a Messages API request is for (its system prompt's Identity line). */
// biome-ignore lint/suspicious/noExplicitAny: a wire body
export function systemText(body: any): string {
  const s = body.system;
  return typeof s === 'string' ? s : Array.isArray(s) ? s.map((b: { text?: string }) => b.text ?? '').join('\n') : '';
}

// biome-ignore lint/suspicious/noExplicitAny: a wire body
export function agentOf(body: any): string {
  return /You are ([a-z][a-z0-9-]*)/.exec(systemText(body))?.[1] ?? 'unknown';
}

export function settingsFor(baseURL: string, extra: Record<string, unknown> = {}) {
  return (_repo: string) => ({
    agents: [
      { name: 'backend', prompt: 'You own the API.' },
      { name: 'frontend', prompt: 'You own the UI.' },
    ],
    providers: { default: { type: 'anthropic', base_url: baseURL, api_key_env: 'FAKE_ANTHROPIC_KEY', max_retries: 0 } },
    defaults: { liveness: { idle_nudge_after_secs: null }, ...extra },
  });
}
