/**
 * swarm_run over the real MCP SDK client (stdio, --allow-exec) against real git
 * repositories: five tasks merged branch-per-source in one call, the DAG, a conflict
 * that leaves the target untouched, refusals before anything is created, secrets kept
 * out of the store, the logs and the response.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GIT_IDENTITY, git, removeRepos, tempRepo, worktreeCount } from './_git';
import { type Server, startServer, tempDir } from './_harness';
import { storeBytes } from './_store-probe';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  removeRepos();
});

async function server(flags: string[] = ['--allow-exec']): Promise<{ s: Server; db: string }> {
  const db = join(tempDir(), 'colony.db');
  const s = await startServer({ db, flags });
  servers.push(s);
  return { s, db };
}

describe('swarm_run over MCP', () => {
  it('runs five tasks and merges them branch-per-source in ONE call, leaving no worktree behind', async () => {
    const root = tempRepo();
    const { s } = await server();
    const listed = await s.client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['swarm_run', 'exec_parallel']));
    const names = ['auth', 'api', 'ui', 'docs', 'tests'];
    const r = await s.call('swarm_run', {
      repo_root: root,
      tasks: names.map((n) => ({ name: n, command: `mkdir -p src && echo ${n} > src/${n}.txt` })),
      merge_strategy: 'branch-per-source',
      merge_target: 'main',
      max_parallel: 5,
    });
    expect(r.isError).toBe(false);
    expect(r.payload.swarm_id).toMatch(/^swarm-\d{8}-\d{6}(-\d+)?$/);
    expect(r.payload.summary).toMatchObject({ total_tasks: 5, succeeded: 5, failed: 0, workers_destroyed: 5 });
    expect(r.payload.merge.results).toEqual(
      names.map((n) => ({ source: n, success: true, commits_applied: 1, conflicts: [] })),
    );
    expect(r.payload.tasks[0]).toMatchObject({ name: 'auth', success: true, exit_code: 0, commits: 1, skipped: false });
    const merges = git(root, 'log', '--merges', '--format=%s', 'main').split('\n');
    expect(merges.sort()).toEqual(names.map((n) => `Merge task: ${n}`).sort());
    expect(git(root, 'ls-tree', '--name-only', 'main:src').split('\n').sort()).toEqual(
      names.map((n) => `${n}.txt`).sort(),
    );
    expect(worktreeCount(root)).toBe(1);
    expect(git(root, 'branch', '--list', 'colony/*')).toBe('');
    expect(git(root, 'status', '--porcelain')).toBe('');
  });

  it('runs a diamond DAG: d sees a, b and c; a failing b skips d', async () => {
    const root = tempRepo();
    const { s } = await server();
    const tasks = (bCommand: string) => [
      { name: 'a', command: 'echo a > a.txt' },
      { name: 'b', command: bCommand, depends_on: ['a'] },
      { name: 'c', command: 'echo c > c.txt', depends_on: ['a'] },
      { name: 'd', command: 'ls *.txt > d.txt', depends_on: ['b', 'c'] },
    ];
    const ok = await s.call('swarm_run', { repo_root: root, tasks: tasks('echo b > b.txt'), cleanup: false });
    expect(ok.payload.tasks.map((t: { success: boolean }) => t.success)).toEqual([true, true, true, true]);
    const d = ok.payload.tasks[3];
    expect(readFileSync(join(d.workspace_id, 'd.txt'), 'utf8').split('\n').filter(Boolean)).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
    ]);
    // cleanup: false keeps worktrees and branches, and no merge was asked.
    expect(worktreeCount(root)).toBe(5);
    expect(ok.payload.merge).toBeUndefined();

    const failed = await s.call('swarm_run', { repo_root: root, tasks: tasks('exit 7') });
    expect(
      failed.payload.tasks.map((t: { name: string; exit_code: number | null; skipped: boolean }) => [
        t.name,
        t.exit_code,
        t.skipped,
      ]),
    ).toEqual([
      ['a', 0, false],
      ['b', 7, false],
      ['c', 0, false],
      ['d', null, true],
    ]);
    expect(failed.payload.swarm_id).not.toBe(ok.payload.swarm_id);
  });

  it('reports a conflicting source with its path and leaves the target tree exactly as before it', async () => {
    const root = tempRepo();
    const { s } = await server();
    const r = await s.call('swarm_run', {
      repo_root: root,
      tasks: [
        { name: 'one', command: 'echo one > f.txt' },
        { name: 'two', command: 'echo two > f.txt' },
        { name: 'three', command: 'echo three > g.txt' },
      ],
      merge_strategy: 'cherry-pick',
      merge_target: 'main',
    });
    expect(r.payload.merge.results).toEqual([
      { source: 'one', success: true, commits_applied: 1, conflicts: [] },
      { source: 'two', success: false, commits_applied: 0, conflicts: ['f.txt'] },
      { source: 'three', success: true, commits_applied: 1, conflicts: [] },
    ]);
    expect(git(root, 'show', 'main:f.txt')).toBe('one');
    expect(git(root, 'show', 'main:g.txt')).toBe('three');
    expect(existsSync(join(root, '.git', 'CHERRY_PICK_HEAD'))).toBe(false);
    // The conflicting task's branch holds unmerged work: kept; the others' are gone.
    expect(git(root, 'branch', '--list', 'colony/*')).toBe(`colony/${r.payload.swarm_id}/two`);
  });

  it('refuses a cycle, an unknown dependency and a dirty checked-out target before creating anything', async () => {
    const root = tempRepo();
    const { s } = await server();
    const cycle = await s.call('swarm_run', {
      repo_root: root,
      tasks: [
        { name: 'a', command: 'true', depends_on: ['b'] },
        { name: 'b', command: 'true', depends_on: ['a'] },
      ],
    });
    expect(cycle.payload).toMatchObject({ code: 'INVALID_PARAMETERS', cycle: ['a', 'b'] });
    const unknown = await s.call('swarm_run', {
      repo_root: root,
      tasks: [{ name: 'a', command: 'true', depends_on: ['zz'] }],
    });
    expect(unknown.payload).toMatchObject({ code: 'INVALID_PARAMETERS', unknown: 'zz' });
    writeFileSync(join(root, 'README.md'), 'dirty\n');
    const dirty = await s.call('swarm_run', {
      repo_root: root,
      tasks: [{ name: 'a', command: 'touch ran' }],
      merge_strategy: 'sequential',
      merge_target: 'main',
    });
    expect(dirty.payload.code).toBe('DIRTY_TREE');
    expect(worktreeCount(root)).toBe(1);
    expect(existsSync(join(root, '.colony', 'worktrees'))).toBe(false);
  });

  it('keeps env_vars values out of the store, the logs and the response', async () => {
    const root = tempRepo();
    const { s, db } = await server();
    const secret = 'sk-test-very-secret-4242';
    const r = await s.call('swarm_run', {
      repo_root: root,
      tasks: [{ name: 'leak', command: 'echo "key=$API_KEY"; echo "$API_KEY" >&2' }],
      env_vars: { API_KEY: secret, ...GIT_IDENTITY },
    });
    expect(r.payload.tasks[0].stdout).toBe('key=***\n');
    expect(r.text).not.toContain(secret);
    const status = await s.call('swarm_status', { swarm_id: r.payload.swarm_id });
    expect(status.payload).toMatchObject({ state: 'completed', progress: { total: 1, completed: 1, failed: 0 } });
    await s.close();
    servers.length = 0;
    const stored = Buffer.concat(storeBytes(db));
    expect(stored.includes(r.payload.swarm_id), 'the store holds the run').toBe(true);
    expect(stored.includes(secret)).toBe(false);
    const log = join(root, '.colony', 'logs', 'swarm', r.payload.swarm_id, 'leak.log');
    const logged = readFileSync(log, 'utf8');
    expect(logged).toContain('key=***');
    expect(logged).not.toContain(secret);
  });
});
