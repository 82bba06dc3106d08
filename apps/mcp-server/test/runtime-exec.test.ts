/**
 * The runtime toolset over the real MCP SDK client against real git repositories:
 * workspace_fork/list/merge/destroy, exec_parallel (broadcast, per workspace, timeout
 * of a process group, truncation, unknown ids, workdir escape), and the opt-in: without
 * --allow-exec every runtime tool answers EXEC_NOT_ALLOWED and runs nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, removeRepos, tempRepo, worktreeCount } from './_git';
import { type Server, startServer, tempDir } from './_harness';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  removeRepos();
});

async function server(flags: string[]): Promise<Server> {
  const s = await startServer({ db: join(tempDir(), 'colony.db'), flags });
  servers.push(s);
  return s;
}

const RUNTIME_TOOLS = [
  'workspace_fork',
  'workspace_list',
  'workspace_merge',
  'workspace_destroy',
  'exec_parallel',
  'swarm_run',
  'swarm_status',
  'swarm_collect',
  'workspace_clean',
];

describe('without --allow-exec', () => {
  it('lists no runtime tool, and every one answers EXEC_NOT_ALLOWED naming the flag, running nothing', async () => {
    const root = tempRepo();
    const s = await server([]);
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    for (const tool of RUNTIME_TOOLS) expect(names).not.toContain(tool);
    const args: Record<string, Record<string, unknown>> = {
      workspace_fork: { repo_root: root },
      workspace_list: { repo_root: root },
      workspace_merge: { repo_root: root, workspace_ids: ['x'], merge_target: 'main', merge_strategy: 'sequential' },
      workspace_destroy: { workspace_ids: ['x'] },
      exec_parallel: { workspace_ids: [root], commands: `touch ${join(root, 'ran')}` },
      swarm_run: { repo_root: root, tasks: [{ name: 'a', command: `touch ${join(root, 'ran')}` }] },
      swarm_status: { swarm_id: 'swarm-x' },
      swarm_collect: { swarm_id: 'swarm-x' },
      workspace_clean: { repo_root: root },
    };
    for (const tool of RUNTIME_TOOLS) {
      const r = await s.call(tool, args[tool]);
      expect(r.isError, tool).toBe(true);
      expect(r.payload.code, tool).toBe('EXEC_NOT_ALLOWED');
      expect(r.payload.error, tool).toContain('--allow-exec');
    }
    expect(existsSync(join(root, 'ran'))).toBe(false);
    expect(existsSync(join(root, '.colony'))).toBe(false);
    expect(worktreeCount(root)).toBe(1);
  });
});

describe('workspaces and exec_parallel', () => {
  it('forks workspaces and runs broadcast and per-workspace commands across them', async () => {
    const root = tempRepo();
    const s = await server(['--allow-exec']);
    const fork = await s.call('workspace_fork', { repo_root: root, count: 2 });
    expect(
      fork.payload.workspaces.map((w: { workspace_name: string; branch: string }) => [w.workspace_name, w.branch]),
    ).toEqual([
      ['ws-1', 'colony/ws/ws-1'],
      ['ws-2', 'colony/ws/ws-2'],
    ]);
    const [one, two] = fork.payload.workspaces;
    expect(one.workspace_id).toBe(join(root, '.colony', 'worktrees', 'ws-1'));
    expect(git(root, 'worktree', 'list')).toContain(one.workspace_id);

    const broadcast = await s.call('exec_parallel', {
      repo_root: root,
      workspace_ids: [one.workspace_id, 'ws-2'],
      commands: 'git rev-parse --abbrev-ref HEAD; echo "$GREETING"',
      env: { GREETING: 'hi' },
    });
    expect(broadcast.payload.results.map((r: { stdout: string }) => r.stdout)).toEqual([
      'colony/ws/ws-1\nhi\n',
      'colony/ws/ws-2\nhi\n',
    ]);
    expect(broadcast.payload.summary).toMatchObject({ total: 2, succeeded: 2, failed: 0, timed_out: 0 });

    const each = await s.call('exec_parallel', {
      repo_root: root,
      workspace_ids: ['ws-1', 'colony/ws/ws-2', 'nope'],
      commands: ['echo 1 > one.txt && exit 0', 'exit 4', 'true'],
    });
    expect(
      each.payload.results.map((r: { exit_code: number; workspace_name: string }) => [r.workspace_name, r.exit_code]),
    ).toEqual([
      ['ws-1', 0],
      ['ws-2', 4],
      ['nope', -1],
    ]);
    expect(each.payload.results[2].stderr).toContain('not found');
    expect(each.payload.summary).toMatchObject({ total: 3, succeeded: 1, failed: 2 });

    const mismatch = await s.call('exec_parallel', {
      repo_root: root,
      workspace_ids: ['ws-1', 'ws-2'],
      commands: ['a'],
    });
    expect(mismatch.payload.code).toBe('INVALID_PARAMETERS');
    const escape = await s.call('exec_parallel', {
      repo_root: root,
      workspace_ids: ['ws-1'],
      commands: 'pwd',
      workdir: '../..',
    });
    expect(escape.payload.code).toBe('INVALID_PARAMETERS');
    const none = await s.call('exec_parallel', { repo_root: root, workspace_ids: ['x', 'y'], commands: 'true' });
    expect(none.payload.code).toBe('WORKSPACE_NOT_FOUND');

    const slow = await s.call('exec_parallel', {
      workspace_ids: [two.workspace_id],
      commands: `sh -c 'trap "" TERM; sleep 5; touch late' & sleep 20`,
      timeout_secs: 1,
    });
    expect(slow.payload.results[0]).toMatchObject({ timed_out: true, exit_code: -1 });
    const big = await s.call('exec_parallel', {
      workspace_ids: [two.workspace_id],
      commands: 'head -c 100000 /dev/zero | tr "\\0" y',
      max_output_bytes: 1000,
    });
    expect(big.payload.results[0]).toMatchObject({ truncated: true, exit_code: 0 });
    expect(big.payload.results[0].stdout).toHaveLength(1000);

    // Destroy refuses dirty (one.txt is uncommitted), then unmerged; merge lands the work; force removes.
    const dirty = await s.call('workspace_destroy', { repo_root: root, workspace_ids: ['ws-1'] });
    expect(dirty.payload).toMatchObject({ code: 'WORKSPACE_DIRTY', files: ['one.txt'] });
    await s.call('exec_parallel', {
      repo_root: root,
      workspace_ids: ['ws-1'],
      commands: 'git add -A && git -c user.name=t -c user.email=t@t commit -qm one',
    });
    const unmerged = await s.call('workspace_destroy', { repo_root: root, workspace_ids: ['ws-1'] });
    expect(unmerged.payload.code).toBe('WORKSPACE_UNMERGED');
    const merged = await s.call('workspace_merge', {
      repo_root: root,
      workspace_ids: ['ws-1'],
      merge_target: 'main',
      merge_strategy: 'branch-per-source',
    });
    expect(merged.payload.merge.results).toEqual([
      { source: 'ws-1', success: true, commits_applied: 1, conflicts: [] },
    ]);
    expect(git(root, 'show', 'main:one.txt')).toBe('1');
    const listed = await s.call('workspace_list', { repo_root: root });
    expect(listed.payload.count).toBe(2);
    const destroyed = await s.call('workspace_destroy', { repo_root: root, workspace_ids: ['ws-1', 'ws-2'] });
    expect(destroyed.payload.count).toBe(2);
    expect(worktreeCount(root)).toBe(1);
    expect(git(root, 'branch', '--list', 'colony/*')).toBe('');
    expect(existsSync(join(two.workspace_id, 'late'))).toBe(false);
  });
});
