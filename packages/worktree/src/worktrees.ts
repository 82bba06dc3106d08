/**
 * @module worktrees
 * Real git worktrees (`git worktree list` shows them; the git CLI commits in them):
 * create (on a new branch, locked while in use), list, lock, unlock, status,
 * auto-commit, remove. Every command that changes refs or worktree metadata runs under
 * the repository's lock.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { GitError, git, gitRaw, withRepoLock } from './_git';
import { colonyDir, type Repo, RepoError, resolveCommit } from './repo';

export interface WorktreeInfo {
  /** Absolute path. */
  readonly path: string;
  /** Short branch name, or null when detached. */
  readonly branch: string | null;
  readonly head: string | null;
  readonly locked: boolean;
  /** The repository's own checkout (the first entry of `git worktree list`). */
  readonly main: boolean;
  readonly prunable: boolean;
}

export interface CreateWorktreeOptions {
  /** Absolute path of the new worktree. */
  readonly path: string;
  /** New branch to create there. */
  readonly branch: string;
  /** Commit-ish it starts from (default HEAD). */
  readonly base?: string;
  /** Lock it (default true); `false` leaves it unlocked. The text names the user (git >= 2.35 could record it). */
  readonly lockReason?: string | false;
}

/** A full object id (SHA-1 or SHA-256). */
export const FULL_OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export interface CreatedWorktree {
  readonly path: string;
  readonly branch: string;
  readonly baseCommit: string;
}

/**
 * `git worktree add --no-checkout -b <branch> <path> <base>` and `git worktree lock`
 * under the repository lock (metadata only: fast), then the files are checked out
 * outside it (`reset --hard`, with git's parallel checkout), so several worktrees fill
 * at once: each has its own index.
 */
export async function createWorktree(repo: Repo, options: CreateWorktreeOptions): Promise<CreatedWorktree> {
  colonyDir(repo);
  // A caller that resolved its base already (every fork does) saves a rev-parse.
  const given = options.base ?? 'HEAD';
  const baseCommit = FULL_OID.test(given) ? given : await resolveCommit(repo.root, given);
  const path = resolve(options.path);
  mkdirSync(dirname(path), { recursive: true });
  await withRepoLock(repo.commonDir, async () => {
    // `add --lock` (no reason: `--reason` on add needs git 2.35) saves a process per worktree.
    const lock = options.lockReason === false ? [] : ['--lock'];
    await git(['worktree', 'add', '--quiet', '--no-checkout', ...lock, '-b', options.branch, path, baseCommit], {
      cwd: repo.root,
    });
  });
  await git(['-c', 'checkout.workers=0', 'reset', '--quiet', '--hard', 'HEAD'], { cwd: path, timeoutMs: 600_000 });
  return { path, branch: options.branch, baseCommit };
}

/** Every worktree of the repository, the main checkout first (`git worktree list --porcelain`). */
export async function listWorktrees(repo: Repo): Promise<WorktreeInfo[]> {
  const out = await readWorktreeList(repo.root);
  const list: WorktreeInfo[] = [];
  for (const block of out.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l !== '');
    if (lines.length === 0) continue;
    let path = '';
    let branch: string | null = null;
    let head: string | null = null;
    let locked = false;
    let prunable = false;
    for (const line of lines) {
      if (line.startsWith('worktree ')) path = line.slice('worktree '.length);
      else if (line.startsWith('HEAD ')) head = line.slice(5);
      else if (line.startsWith('branch ')) branch = line.slice(7).replace(/^refs\/heads\//, '');
      else if (line === 'locked' || line.startsWith('locked ')) locked = true;
      else if (line === 'prunable' || line.startsWith('prunable ')) prunable = true;
    }
    list.push({ path: resolve(path), branch, head, locked, main: list.length === 0, prunable });
  }
  return list;
}

/** What git prints when it read a worktree's metadata while another process was still writing it. */
const TORN_METADATA = /failed to read .*worktrees\/[^/\s]+\/(?:commondir|gitdir|HEAD)/;

/**
 * `git worktree list --porcelain`, read again (up to 5 times, 20 ms apart) when it died on
 * a worktree that another process (a user's git, say) was adding: a read outside the
 * repository lock can meet `worktrees/<id>/` half-written. Reading has no effect to undo.
 */
async function readWorktreeList(cwd: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const result = await gitRaw(['worktree', 'list', '--porcelain'], { cwd });
    if (result.code === 0) return result.stdout;
    if (attempt >= 5 || !TORN_METADATA.test(result.stderr)) {
      const reason = result.stderr.trim().split('\n').slice(-3).join(' ');
      throw new GitError(
        `git worktree list --porcelain failed: ${reason}`,
        'exit',
        ['worktree', 'list', '--porcelain'],
        result.code,
        result.stderr,
      );
    }
    await new Promise((done) => setTimeout(done, 20));
  }
}

export async function lockWorktree(repo: Repo, path: string, reason = 'colony: in use'): Promise<void> {
  await withRepoLock(repo.commonDir, async () => {
    const out = await gitRaw(['worktree', 'lock', '--reason', reason, path], { cwd: repo.root });
    if (out.code !== 0 && !/already locked/.test(out.stderr)) {
      throw new RepoError('ref_not_found', `cannot lock ${path}: ${out.stderr.trim()}`);
    }
  });
}

export async function unlockWorktree(repo: Repo, path: string): Promise<void> {
  await withRepoLock(repo.commonDir, async () => {
    const out = await gitRaw(['worktree', 'unlock', path], { cwd: repo.root });
    if (out.code !== 0 && !/not locked/.test(out.stderr)) {
      throw new RepoError('ref_not_found', `cannot unlock ${path}: ${out.stderr.trim()}`);
    }
  });
}

export interface WorktreeStatus {
  readonly clean: boolean;
  /** Paths from `git status --porcelain` (untracked included). */
  readonly files: string[];
}

/** `git status --porcelain`; `untracked: false` counts only changes to tracked files. */
export async function worktreeStatus(path: string, options: { untracked?: boolean } = {}): Promise<WorktreeStatus> {
  const untracked = options.untracked === false ? '--untracked-files=no' : '--untracked-files=all';
  const out = await git(['status', '--porcelain', untracked], { cwd: path });
  const files = out
    .split('\n')
    .filter((l) => l.length > 3)
    .map((l) => l.slice(3));
  return { clean: files.length === 0, files };
}

export type AutoCommitResult = { readonly committed: false } | { readonly committed: true; readonly commit: string };

/** Stages everything and commits it when the worktree is dirty (`git add -A` + `git commit`). */
export async function autoCommit(path: string, message: string): Promise<AutoCommitResult> {
  const status = await worktreeStatus(path);
  if (status.clean) return { committed: false };
  await git(['add', '-A'], { cwd: path });
  await git(['commit', '--quiet', '--no-verify', '-m', message], { cwd: path });
  const commit = (await git(['rev-parse', 'HEAD'], { cwd: path })).trim();
  return { committed: true, commit };
}

export interface RemoveWorktreeOptions {
  /** Remove even with uncommitted changes (`--force --force` also overrides the lock). */
  readonly force?: boolean;
  /** Delete the worktree's branch afterwards: `merged` only when its commits are in `mergedInto`, `always`, or `never` (default). */
  readonly deleteBranch?: 'never' | 'always' | { readonly mergedInto: string };
}

export interface RemovedWorktree {
  readonly removed: boolean;
  readonly branchDeleted: boolean;
  readonly branch: string | null;
}

/** Unlocks and removes a worktree, prunes stale metadata, and deletes its branch if asked. */
export async function removeWorktree(
  repo: Repo,
  path: string,
  options: RemoveWorktreeOptions = {},
): Promise<RemovedWorktree> {
  const abs = resolve(path);
  const info = (await listWorktrees(repo)).find((w) => w.path === abs);
  const branch = info?.branch ?? null;
  return withRepoLock(repo.commonDir, async () => {
    let removed = false;
    if (info) {
      await gitRaw(['worktree', 'unlock', abs], { cwd: repo.root });
      const args = ['worktree', 'remove', ...(options.force ? ['--force'] : []), abs];
      const out = await gitRaw(args, { cwd: repo.root });
      if (out.code !== 0 && existsSync(abs)) {
        await gitRaw(['worktree', 'lock', '--reason', 'colony: in use', abs], { cwd: repo.root });
        throw new RepoError('dirty_tree', `cannot remove ${abs}: ${out.stderr.trim()}`, { workspace_id: abs });
      }
      removed = true;
    }
    await gitRaw(['worktree', 'prune'], { cwd: repo.root });
    const branchDeleted = await deleteBranchByPolicy(repo, branch, options.deleteBranch);
    return { removed, branchDeleted, branch };
  });
}

/** Deletes a released worktree's branch as `policy` says; call it under the repository lock. */
export async function deleteBranchByPolicy(
  repo: Repo,
  branch: string | null,
  policy: RemoveWorktreeOptions['deleteBranch'] = 'never',
): Promise<boolean> {
  if (!branch || policy === 'never') return false;
  const ok = policy === 'always' || (await isMerged(repo.root, branch, policy.mergedInto));
  return ok && (await gitRaw(['branch', '-D', branch], { cwd: repo.root })).code === 0;
}

/** Whether every commit of `branch` is reachable from `into`. */
export async function isMerged(cwd: string, branch: string, into: string): Promise<boolean> {
  const out = await gitRaw(['rev-list', '--count', `refs/heads/${branch}`, `^${into}`, '--'], { cwd });
  return out.code === 0 && out.stdout.trim() === '0';
}

/** Branch names under a prefix (`git for-each-ref refs/heads/<prefix>`). */
export async function listBranches(cwd: string, prefix: string): Promise<string[]> {
  const out = await git(['for-each-ref', '--format=%(refname:short)', `refs/heads/${prefix}`], { cwd });
  return out.split('\n').filter((l) => l !== '');
}

export async function deleteBranch(repo: Repo, branch: string): Promise<boolean> {
  return withRepoLock(
    repo.commonDir,
    async () => (await gitRaw(['branch', '-D', branch], { cwd: repo.root })).code === 0,
  );
}
