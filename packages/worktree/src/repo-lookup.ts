/**
 * @module repo-lookup
 * The repository a path lives in, for the hooks: its root (nearest folder holding a
 * `.git` folder or worktree `.git` file) and checked-out branch, read with
 * isomorphic-git (no git binary needed): the one place isomorphic-git stays, since
 * these two read-only lookups work there (everything else runs the git CLI). Loaded lazily, so commands that never ask
 * do not pay for it. A detached HEAD has no branch; no repository gives null.
 */
import * as fs from 'node:fs';
import { resolve } from 'node:path';

/** A path's repository: its root and checked-out branch (null when detached). */
export interface RepoLocation {
  readonly root: string;
  readonly branch: string | null;
}

export async function locateRepo(path: string): Promise<RepoLocation | null> {
  const { default: git } = await import('isomorphic-git');
  let root: string;
  try {
    root = await git.findRoot({ fs, filepath: resolve(path) });
  } catch {
    return null;
  }
  let branch: string | null = null;
  try {
    branch = (await git.currentBranch({ fs, dir: root, fullname: false })) ?? null;
  } catch {
    branch = null;
  }
  return { root: resolve(root), branch };
}
