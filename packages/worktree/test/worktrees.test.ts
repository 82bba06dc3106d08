import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  autoCommit,
  colonyDir,
  createWorktree,
  listWorktrees,
  openRepo,
  RepoError,
  removeWorktree,
  requireGit,
  versionAtLeast,
  worktreeStatus,
} from '../src/index';
import { sh, tempRepos } from './_repo';

const repo = tempRepos();

describe('git version', () => {
  it('compares dotted versions', () => {
    expect(versionAtLeast('2.39.5', '2.20.0')).toBe(true);
    expect(versionAtLeast('2.20.0', '2.20.0')).toBe(true);
    expect(versionAtLeast('2.19.9', '2.20.0')).toBe(false);
  });
  it('refuses a git older than 2.20 naming the version found', async () => {
    await expect(requireGit('2.17.1')).rejects.toMatchObject({
      reason: 'git_too_old',
      details: { found: '2.17.1' },
    });
    await expect(requireGit('2.17.1')).rejects.toThrow(/git 2\.17\.1 is too old/);
  });
});

describe('worktrees', () => {
  it('creates a real, locked worktree on a new branch that the git CLI sees and commits in', async () => {
    const { root } = repo();
    const r = await openRepo(root);
    const path = join(root, '.colony', 'worktrees', 'one');
    const wt = await createWorktree(r, { path, branch: 'colony/ws/one' });
    expect(wt.baseCommit).toBe(sh(root, 'rev-parse', 'HEAD'));
    const listed = await listWorktrees(r);
    expect(listed.map((w) => [w.path, w.branch, w.locked])).toEqual([
      [root, 'main', false],
      [path, 'colony/ws/one', true],
    ]);
    expect(sh(root, 'worktree', 'list')).toContain(path);
    // .colony/ is excluded through info/exclude, never .gitignore.
    expect(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8')).toContain('/.colony/');
    expect(existsSync(join(root, '.gitignore'))).toBe(false);
    expect(sh(root, 'status', '--porcelain')).toBe('');

    writeFileSync(join(path, 'a.txt'), 'A');
    expect((await worktreeStatus(path)).files).toEqual(['a.txt']);
    const committed = await autoCommit(path, 'swarm: auto-commit one');
    expect(committed.committed).toBe(true);
    expect(sh(path, 'log', '-1', '--format=%s')).toBe('swarm: auto-commit one');
    expect(await autoCommit(path, 'again')).toEqual({ committed: false });
  });

  it('removes a worktree (even locked) and keeps its branch unless asked', async () => {
    const { root } = repo();
    const r = await openRepo(root);
    const path = join(colonyDir(r), 'worktrees', 'two');
    await createWorktree(r, { path, branch: 'colony/ws/two' });
    const removed = await removeWorktree(r, path);
    expect(removed).toEqual({ removed: true, branchDeleted: false, branch: 'colony/ws/two' });
    expect(existsSync(path)).toBe(false);
    expect(sh(root, 'branch', '--list', 'colony/ws/two')).toContain('colony/ws/two');
  });

  it('refuses removing a dirty worktree without force', async () => {
    const { root } = repo();
    const r = await openRepo(root);
    const path = join(colonyDir(r), 'worktrees', 'dirty');
    await createWorktree(r, { path, branch: 'colony/ws/dirty' });
    writeFileSync(join(path, 'x.txt'), 'x');
    await expect(removeWorktree(r, path)).rejects.toBeInstanceOf(RepoError);
    expect(existsSync(path)).toBe(true);
    expect((await listWorktrees(r)).find((w) => w.path === path)?.locked).toBe(true);
    await removeWorktree(r, path, { force: true, deleteBranch: 'always' });
    expect(sh(root, 'branch', '--list', 'colony/ws/dirty')).toBe('');
  });

  it('says which path is not a repository', async () => {
    const { root } = repo();
    await expect(openRepo(join(root, '..'))).rejects.toMatchObject({ reason: 'not_a_repo' });
  });
});
