/**
 * @module pool
 * A bounded pool of recycled worktrees under `<root>/.colony/worktrees/.pool/`. Writing
 * a whole tree is what a fork costs (20 checkouts of a 10,000-file repository are
 * 200,000 files on 2 cores); a pooled worktree is moved into place and switched with
 * `checkout -b`, which rewrites only the files that differ from its last commit. Two git
 * processes per worktree otherwise (move, lock) are file operations on the documented
 * layout (gitrepository-layout: `worktrees/<id>/gitdir`, `locked`).
 *
 * Invariants:
 * - A slot in the pool is clean and detached: a released worktree is reset and detached
 *   (`checkout -f --detach`) and cleaned (`clean -ffdx`: untracked and ignored files go,
 *   nested repositories too) BEFORE it is moved in, and the move is the last step, so no
 *   half-recycled worktree is ever taken. It then equals a fresh checkout of its commit.
 * - Taking a slot is moving it out of the pool (what `git worktree move` does, without
 *   the process): a rename that only one caller can win: callers in one process skip the slots a sibling claimed, and a caller in
 *   another process that loses the rename tries the next slot. No slot is handed out twice.
 * - Slots are unlocked (not in use) and never listed as workspaces (`colonyWorktrees`
 *   skips the pool). A slot's name starts with the time it was pooled, so its age needs
 *   no extra file.
 * - Bounded: at most `COLONY_WORKTREE_POOL` slots (default 20; `0` turns pooling off),
 *   none older than 24 h once pruned. A worktree in an unusual state (a rebase, bisect
 *   or sequencer in progress, sparse checkout, its own config, submodules) is removed as
 *   before instead of pooled.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { git, gitRaw, withRepoLock } from './_git';
import { isInside, POOL_DIR, worktreesRoot } from './layout';
import { type Repo, resolveCommit } from './repo';
import {
  type CreatedWorktree,
  type CreateWorktreeOptions,
  createWorktree,
  deleteBranchByPolicy,
  FULL_OID,
  listWorktrees,
  type RemovedWorktree,
  type RemoveWorktreeOptions,
  removeWorktree,
  worktreeStatus,
} from './worktrees';

export const POOL_DEFAULT_CAPACITY = 20;
export const POOL_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** A slot git does not know is left this long before pruning deletes it (a release may be moving it in). */
const STRAY_GRACE_MS = 60_000;
/** Hooks off for the switch: a fresh checkout (`worktree add --no-checkout` + `reset --hard`) runs none either. */
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null'];
/** Files in a worktree's git dir that mean it is mid-operation or configured apart: such a worktree is not pooled. */
const NOT_PLAIN = [
  'rebase-merge',
  'rebase-apply',
  'BISECT_LOG',
  'sequencer',
  'MERGE_HEAD',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'config.worktree',
  'info/sparse-checkout',
];
const SLOT = /^([0-9a-z]+)-[0-9a-z]+-[0-9a-z]+$/;

export function poolRoot(repo: Repo): string {
  return join(worktreesRoot(repo), POOL_DIR);
}

/** Slots the pool may hold: `COLONY_WORKTREE_POOL` (a count, `0` = off), default 20. */
export function poolCapacity(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.COLONY_WORKTREE_POOL;
  const n = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : POOL_DEFAULT_CAPACITY;
}

export interface PoolSlot {
  readonly path: string;
  /** When it was pooled (ms since the epoch, the OS clock: it is compared with itself only). */
  readonly pooledAt: number;
}

/** The pool's slot folders, newest first (whether git still knows them or not). */
export function poolSlots(repo: Repo): PoolSlot[] {
  const root = poolRoot(repo);
  if (!existsSync(root)) return [];
  const slots: PoolSlot[] = [];
  for (const name of readdirSync(root)) {
    const match = SLOT.exec(name);
    if (match) slots.push({ path: join(root, name), pooledAt: Number.parseInt(match[1] as string, 36) });
  }
  return slots.sort((a, b) => b.pooledAt - a.pooledAt);
}

/** Slots claimed by a fork in this process (another process's claim is the rename itself). */
const claimed = new Set<string>();
let counter = 0;

function slotName(): string {
  counter = (counter + 1) % 36 ** 4;
  return `${Date.now().toString(36)}-${process.pid.toString(36)}-${counter.toString(36)}`;
}

export type ForkedWorktree = CreatedWorktree & { readonly pooled: boolean };

/**
 * A new worktree on a new branch at `base`: a pooled one when the pool has any
 * (moved into place, `checkout -b`, locked), else a fresh checkout (`createWorktree`).
 * Either way it equals a fresh checkout of `base`. A pooled one that cannot be switched
 * (say the branch exists) is discarded and the fresh path runs, so errors read as before.
 */
export async function forkWorktree(repo: Repo, options: CreateWorktreeOptions): Promise<ForkedWorktree> {
  const given = options.base ?? 'HEAD';
  const base = FULL_OID.test(given) ? given : await resolveCommit(repo.root, given);
  const taken = await takeFromPool(repo, { ...options, base });
  if (taken) return { ...taken, pooled: true };
  return { ...(await createWorktree(repo, { ...options, base })), pooled: false };
}

async function takeFromPool(
  repo: Repo,
  options: CreateWorktreeOptions & { readonly base: string },
): Promise<CreatedWorktree | null> {
  if (poolCapacity() === 0) return null;
  const path = resolve(options.path);
  for (const slot of poolSlots(repo)) {
    if (claimed.has(slot.path)) continue;
    claimed.add(slot.path);
    try {
      mkdirSync(dirname(path), { recursive: true });
      // Lost the rename to another process, or a broken slot (pruning removes it): try the next.
      // Under the repository lock all the same: no `worktree prune` of this process runs mid-move.
      if (!(await withRepoLock(repo.commonDir, async () => moveWorktree(slot.path, path)))) continue;
      const switched = await gitRaw([...NO_HOOKS, 'checkout', '-q', '-b', options.branch, options.base], {
        cwd: path,
        timeoutMs: 600_000,
      });
      const gitDir = worktreeGitDir(path);
      if (switched.code !== 0 || gitDir === null) {
        await discard(repo, path);
        return null;
      }
      // What `git worktree lock` writes (gitrepository-layout: worktrees/<id>/locked), without a process.
      if (options.lockReason !== false) writeFileSync(join(gitDir, 'locked'), options.lockReason ?? 'colony: in use');
      return { path, branch: options.branch, baseCommit: options.base };
    } finally {
      claimed.delete(slot.path);
    }
  }
  return null;
}

async function discard(repo: Repo, path: string): Promise<void> {
  await withRepoLock(repo.commonDir, () =>
    gitRaw(['worktree', 'remove', '--force', '--force', path], { cwd: repo.root }),
  );
  rmSync(path, { recursive: true, force: true });
}

export type ReleasedWorktree = RemovedWorktree & { readonly pooled: boolean };

/**
 * Takes a worktree out of use: into the pool when it may go there (pooling on, room
 * left, a plain state, clean unless `force`), else `removeWorktree` as before. Its
 * branch is deleted by the same policy either way. Without `force` a dirty worktree is
 * refused exactly as `removeWorktree` refuses it.
 */
export async function releaseWorktree(
  repo: Repo,
  path: string,
  options: RemoveWorktreeOptions = {},
): Promise<ReleasedWorktree> {
  const abs = resolve(path);
  const pooled = await recycle(repo, abs, options).catch(() => null);
  if (pooled) return { ...pooled, pooled: true };
  return { ...(await removeWorktree(repo, abs, options)), pooled: false };
}

async function recycle(repo: Repo, abs: string, options: RemoveWorktreeOptions): Promise<RemovedWorktree | null> {
  const capacity = poolCapacity();
  if (capacity === 0 || poolSlots(repo).length >= capacity || isInside(poolRoot(repo), abs)) return null;
  // A linked worktree of this repository, read from its files (no `worktree list` process).
  const gitDir = worktreeGitDir(abs);
  if (!gitDir || !isInside(join(repo.commonDir, 'worktrees'), gitDir) || !plain(abs, gitDir)) return null;
  const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
  const branch = head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : null;
  if (!options.force && !(await worktreeStatus(abs)).clean) return null;
  const long = { cwd: abs, timeoutMs: 600_000 };
  // Unlocked by removing what `git worktree lock` wrote: a pooled worktree is not in use.
  rmSync(join(gitDir, 'locked'), { force: true });
  await git([...NO_HOOKS, 'checkout', '-q', '-f', '--detach'], long);
  await git(['clean', '-ffdxq'], long);
  // What a fresh worktree has not: the last user's HEAD history and leftovers.
  for (const file of ['ORIG_HEAD', 'FETCH_HEAD', 'logs/HEAD']) rmSync(join(gitDir, file), { force: true });
  const slot = join(poolRoot(repo), slotName());
  mkdirSync(dirname(slot), { recursive: true });
  return withRepoLock(repo.commonDir, async () => {
    if (!moveWorktree(abs, slot)) return null;
    const branchDeleted = await deleteBranchByPolicy(repo, branch, options.deleteBranch);
    return { removed: true, branchDeleted, branch };
  });
}

/**
 * Moves a linked worktree as `git worktree move` does, without a process: renames its
 * folder (atomic: of two callers, one wins) and rewrites the two links gitrepository-layout
 * documents, its `.git` file and `worktrees/<id>/gitdir`, both absolute. False when the
 * rename failed (another caller took it, or it is not a worktree).
 */
function moveWorktree(from: string, to: string): boolean {
  const gitDir = worktreeGitDir(from);
  if (gitDir === null) return false;
  try {
    renameSync(from, to);
  } catch {
    return false;
  }
  writeFileSync(join(to, '.git'), `gitdir: ${gitDir}\n`);
  writeFileSync(join(gitDir, 'gitdir'), `${join(to, '.git')}\n`);
  return true;
}

/** A linked worktree's own git dir, from its `.git` file (`gitdir: <path>`). */
function worktreeGitDir(abs: string): string | null {
  try {
    const line = readFileSync(join(abs, '.git'), 'utf8').trim();
    return line.startsWith('gitdir: ') ? resolve(abs, line.slice('gitdir: '.length)) : null;
  } catch {
    return null;
  }
}

function plain(abs: string, gitDir: string): boolean {
  return !existsSync(join(abs, '.gitmodules')) && NOT_PLAIN.every((f) => !existsSync(join(gitDir, f)));
}

export interface PrunePoolOptions {
  /** Empty the pool. */
  readonly all?: boolean;
  /** Default `poolCapacity()`. */
  readonly capacity?: number;
  /** Default 24 h. */
  readonly maxAgeMs?: number;
  /** The OS clock by default: slot times are written with it. */
  readonly now?: number;
}

/**
 * Removes slots past their age or past the pool's capacity (oldest first), slots git no
 * longer knows or that are not detached, and stale metadata (`git worktree prune`).
 * Answers how many slots went.
 */
export async function prunePool(repo: Repo, options: PrunePoolOptions = {}): Promise<number> {
  const slots = poolSlots(repo);
  if (slots.length === 0) return 0;
  const now = options.now ?? Date.now();
  const capacity = options.capacity ?? poolCapacity();
  const maxAge = options.maxAgeMs ?? POOL_MAX_AGE_MS;
  await withRepoLock(repo.commonDir, () => gitRaw(['worktree', 'prune'], { cwd: repo.root }));
  const known = new Map((await listWorktrees(repo)).map((w) => [w.path, w]));
  let kept = 0;
  let removed = 0;
  for (const slot of slots) {
    if (claimed.has(slot.path)) continue;
    const info = known.get(slot.path);
    const age = now - slot.pooledAt;
    if (!info) {
      if (age > STRAY_GRACE_MS) {
        rmSync(slot.path, { recursive: true, force: true });
        removed++;
      }
      continue;
    }
    if (!options.all && info.branch === null && age <= maxAge && kept < capacity) {
      kept++;
      continue;
    }
    const out = await withRepoLock(repo.commonDir, () =>
      gitRaw(['worktree', 'remove', '--force', '--force', slot.path], { cwd: repo.root }),
    );
    if (out.code === 0) removed++;
  }
  return removed;
}
