/**
 * The runtime tools from the library: off unless openColony({ allowExec: true }),
 * rate-limited per workspace and per worktree, swarm runs recorded in the store; a run
 * whose recorded process pid now belongs to another process (another start time) reads
 * interrupted.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertSwarmRun, openStore } from '@swarm/storage';
import { processStartTime } from '@swarm/worktree';
import { afterEach, describe, expect, it } from 'vitest';
import { type Colony, openColony } from '../src/index';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0)) fn();
});

function repo(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'colony-rtlib-')));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(root, 'README.md'), 'x\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

function open(options: Parameters<typeof openColony>[0] = {}): Colony {
  const home = mkdtempSync(join(tmpdir(), 'colony-rtlib-home-'));
  const colony = openColony({ home, dbPath: ':memory:', receipts: false, ...options });
  cleanups.push(async () => {
    await colony.close();
    rmSync(home, { recursive: true, force: true });
  });
  return colony;
}

describe('runtime tools in the library', () => {
  it('answer EXEC_NOT_ALLOWED unless openColony({ allowExec: true })', async () => {
    const root = repo();
    const off = open();
    expect(off.allowExec).toBe(false);
    const refused = await off.handleToolCall('swarm_run', { repo_root: root, tasks: [{ name: 'a', command: 'true' }] });
    expect(refused.ok ? null : refused.error.code).toBe('EXEC_NOT_ALLOWED');
    const on = open({ allowExec: true });
    const ran = await on.handleToolCall('swarm_run', {
      repo_root: root,
      tasks: [{ name: 'a', command: 'echo a > a.txt' }],
    });
    expect(ran.ok).toBe(true);
    const id = (ran as { value: { swarm_id: string } }).value.swarm_id;
    const status = await on.handleToolCall('swarm_status', { swarm_id: id });
    expect(status.ok && (status.value as { state: string }).state).toBe('completed');
  });

  it('takes one exec_parallel token per workspace and refuses with the seed-000 payload', async () => {
    const root = repo();
    const colony = open({ allowExec: true, rateLimits: { exec_parallel: { limit: 3, window_sec: 60 } } });
    const fork = await colony.handleToolCall('workspace_fork', { repo_root: root, count: 2 });
    expect(fork.ok).toBe(true);
    const args = { repo_root: root, workspace_ids: ['ws-1', 'ws-2'], commands: 'true' };
    expect((await colony.handleToolCall('exec_parallel', args)).ok).toBe(true);
    const limited = await colony.handleToolCall('exec_parallel', args);
    expect(limited.ok ? null : limited.error).toMatchObject({
      error: 'rate_limited',
      code: 429,
      tool: 'exec_parallel',
      limit: 3,
    });
    await colony.handleToolCall('workspace_destroy', { repo_root: root, workspace_ids: ['ws-1', 'ws-2'], force: true });
  });

  it('reads a run as interrupted when its pid lives on in a process with another start time', async () => {
    const root = repo();
    const dir = mkdtempSync(join(tmpdir(), 'colony-rtlib-db-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'colony.db');
    const store = openStore({ path: dbPath });
    const row = (id: string, pidStarted: number | null) => ({
      id,
      repoRoot: root,
      baseRef: 'HEAD',
      baseCommit: 'abc',
      mergeStrategy: null,
      mergeTarget: null,
      // A live pid: this very process.
      pid: process.pid,
      pidStarted,
      spec: '{}',
      createdAt: 1,
    });
    const own = processStartTime(process.pid);
    await store.write(() =>
      insertSwarmRun(store, row('swarm-reused', (own ?? 0) + 1), [{ name: 'a', branch: 'colony/r/a' }]),
    );
    await store.write(() => insertSwarmRun(store, row('swarm-live', own), [{ name: 'a', branch: 'colony/l/a' }]));
    store.close();
    const colony = open({ allowExec: true, dbPath });
    const state = async (id: string) => {
      const r = await colony.handleToolCall('swarm_status', { swarm_id: id });
      return r.ok ? (r.value as { state: string; workers: { state: string }[] }) : null;
    };
    if (own !== null)
      expect(await state('swarm-reused')).toMatchObject({ state: 'interrupted', workers: [{ state: 'interrupted' }] });
    expect((await state('swarm-live'))?.state).toBe('running');
  });
});
