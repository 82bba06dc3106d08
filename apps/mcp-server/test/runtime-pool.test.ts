/**
 * The worktree pool through the runtime tools over the real MCP SDK client:
 * workspace_destroy recycles, workspace_fork takes the recycled worktree back (a clean,
 * locked worktree on its own branch, nothing of its last user left), workspace_list
 * never shows the pool, and workspace_clean empties it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, pooledCount, removeRepos, tempRepo, worktreeCount } from './_git';
import { type Server, startServer, tempDir } from './_harness';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  removeRepos();
});

describe('worktree pool', () => {
  it('recycles destroyed workspaces for the next fork, hides them from workspace_list, and workspace_clean empties it', async () => {
    const root = tempRepo();
    writeFileSync(join(root, '.gitignore'), '*.log\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'ignore logs');
    const s = await startServer({ db: join(tempDir(), 'colony.db'), flags: ['--allow-exec'] });
    servers.push(s);

    const fork = await s.call('workspace_fork', { repo_root: root, count: 2 });
    const [one] = fork.payload.workspaces;
    writeFileSync(join(one.workspace_id, 'left.txt'), 'untracked\n');
    writeFileSync(join(one.workspace_id, 'build.log'), 'ignored\n');
    const destroyed = await s.call('workspace_destroy', {
      repo_root: root,
      workspace_ids: ['ws-1', 'ws-2'],
      force: true,
    });
    expect(destroyed.payload.count).toBe(2);
    expect(worktreeCount(root)).toBe(1);
    expect(pooledCount(root)).toBe(2);
    expect((await s.call('workspace_list', { repo_root: root })).payload.count).toBe(0);
    expect(git(root, 'branch', '--list', 'colony/*')).toBe('');

    const again = await s.call('workspace_fork', { repo_root: root, names: ['again'] });
    const [ws] = again.payload.workspaces;
    expect(ws).toMatchObject({ workspace_name: 'again', branch: 'colony/ws/again' });
    expect(pooledCount(root)).toBe(1);
    expect(git(ws.workspace_id, 'status', '--porcelain', '--ignored')).toBe('');
    expect(git(ws.workspace_id, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('colony/ws/again');
    expect(git(root, 'worktree', 'list')).toMatch(
      new RegExp(`${ws.workspace_id} +[0-9a-f]+ \\[colony/ws/again\\] locked`),
    );
    const listed = await s.call('workspace_list', { repo_root: root });
    expect(listed.payload.workspaces.map((w: { workspace_name: string }) => w.workspace_name)).toEqual(['again']);

    const clean = await s.call('workspace_clean', { repo_root: root });
    expect(clean.payload).toMatchObject({ interrupted: [], pool_removed: 1 });
    expect(pooledCount(root)).toBe(0);
    expect(worktreeCount(root)).toBe(2);
  });
});
