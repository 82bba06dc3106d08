/** Real git repositories in temp dirs for the runtime tools' tests. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_IDENTITY } }).trim();
}

const made: string[] = [];

/** Removes every repository `tempRepo` made (call it in afterEach, after the servers are closed). */
export function removeRepos(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** A repository with one commit on `main`. */
export function tempRepo(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'colony-rt-')));
  made.push(root);
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(join(root, 'README.md'), 'hello\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

/** Worktrees in use: `git worktree list` without the recycled ones pooled under `.colony/worktrees/.pool/`. */
export function worktreeCount(root: string): number {
  return git(root, 'worktree', 'list')
    .split('\n')
    .filter((line) => !line.includes(POOL)).length;
}

/** Recycled worktrees waiting in the pool. */
export function pooledCount(root: string): number {
  return git(root, 'worktree', 'list')
    .split('\n')
    .filter((line) => line.includes(POOL)).length;
}

const POOL = join('.colony', 'worktrees', '.pool', '');
