/**
 * @module merge
 * Merging branches into a target branch, by three strategies: `sequential`
 * (format-patch + am --3way, in order), `branch-per-source` (merge --no-ff, message
 * `Merge task: <name>`) and `cherry-pick` (the source's own commits).
 *
 * Invariants: the user's checkout is never left mid-merge, and a conflict never
 * half-merges. Every merge happens in a temporary detached worktree at the target's
 * commit; a conflicting source is aborted and the temporary tree reset to exactly the
 * commit before it, so the others still merge. Only at the end does the target move:
 * `merge --ff-only` where it is checked out (which must be clean, checked up front), or
 * a compare-and-swap `update-ref` where it is not. Conflicts are values, not throws.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { git, gitRaw, withRepoLock } from './_git';
import { type CommandResult, runCommand } from './exec';
import { colonyDir, type Repo, RepoError, tryResolve } from './repo';
import { listWorktrees, worktreeStatus } from './worktrees';

export type MergeStrategy = 'sequential' | 'branch-per-source' | 'cherry-pick';
export const MERGE_STRATEGIES: readonly MergeStrategy[] = ['sequential', 'branch-per-source', 'cherry-pick'];

export interface MergeSource {
  /** Reported as `source`; names the merge commit of branch-per-source. */
  readonly name: string;
  readonly branch: string;
  /** Where the source's own commits start (exclusive); default: the merge base with the target. */
  readonly start?: string;
}

export type MergeOutcome =
  | { readonly ok: true; readonly commitsApplied: number }
  | { readonly ok: false; readonly reason: 'conflict'; readonly files: string[] }
  | { readonly ok: false; readonly reason: 'verify_failed'; readonly logTail: string }
  | { readonly ok: false; readonly reason: 'error'; readonly message: string };

export interface SourceResult {
  readonly source: string;
  readonly outcome: MergeOutcome;
}

export interface MergeOptions {
  readonly target: string;
  readonly strategy: MergeStrategy;
  readonly sources: readonly MergeSource[];
  /** Shell command run in each candidate (target + one source) before it is kept. */
  readonly verify?: string;
  readonly verifyTimeoutMs?: number;
}

export interface MergeReport {
  readonly results: SourceResult[];
  /** The target's commit before and after. */
  readonly before: string;
  readonly after: string;
}

/**
 * Where the target branch is checked out, if anywhere; RepoError when it is not a
 * branch, or when it is checked out with uncommitted changes to tracked files (`dirty_tree`).
 */
export async function checkMergeTarget(repo: Repo, target: string): Promise<{ checkedOutAt: string | null }> {
  if ((await tryResolve(repo.root, `refs/heads/${target}`)) === null) {
    throw new RepoError('ref_not_found', `merge_target "${target}" is not a branch`, { merge_target: target });
  }
  const at = (await listWorktrees(repo)).find((w) => w.branch === target)?.path ?? null;
  if (at !== null) {
    // Untracked files do not block a fast-forward (git itself refuses one that would overwrite them).
    const status = await worktreeStatus(at, { untracked: false });
    if (!status.clean) {
      throw new RepoError('dirty_tree', `merge_target "${target}" is checked out at ${at} with uncommitted changes`, {
        merge_target: target,
        path: at,
        files: status.files.slice(0, 20),
      });
    }
  }
  return { checkedOutAt: at };
}

/** Merges each source into the target in order; see the module header for the guarantees. */
export async function mergeBranches(repo: Repo, options: MergeOptions): Promise<MergeReport> {
  const { checkedOutAt } = await checkMergeTarget(repo, options.target);
  const before = (await git(['rev-parse', `refs/heads/${options.target}`], { cwd: repo.root })).trim();
  // node:crypto on first use: it starts OpenSSL (~2 MiB of RSS), which most calls never need.
  const { randomBytes } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const temp = join(colonyDir(repo), 'tmp', `merge-${randomBytes(4).toString('hex')}`);
  await withRepoLock(repo.commonDir, () =>
    git(['worktree', 'add', '--quiet', '--detach', temp, before], { cwd: repo.root }),
  );
  const results: SourceResult[] = [];
  try {
    for (const source of options.sources) {
      const head = (await git(['rev-parse', 'HEAD'], { cwd: temp })).trim();
      let outcome = await applySource(temp, options.strategy, source, head);
      if (outcome.ok && options.verify !== undefined) {
        const run = await runCommand(temp, options.verify, { timeoutMs: options.verifyTimeoutMs ?? 600_000 });
        if (run.exit_code !== 0) outcome = { ok: false, reason: 'verify_failed', logTail: tail(run) };
      }
      if (!outcome.ok) await resetTo(temp, head);
      results.push({ source: source.name, outcome });
    }
    const after = (await git(['rev-parse', 'HEAD'], { cwd: temp })).trim();
    if (after !== before) await moveTarget(repo, options.target, checkedOutAt, before, after);
    return { results, before, after };
  } finally {
    await withRepoLock(repo.commonDir, async () => {
      await gitRaw(['worktree', 'remove', '--force', temp], { cwd: repo.root });
      await gitRaw(['worktree', 'prune'], { cwd: repo.root });
    });
  }
}

async function applySource(cwd: string, strategy: MergeStrategy, source: MergeSource, head: string) {
  const start = source.start ?? (await git(['merge-base', head, source.branch], { cwd })).trim();
  const own = Number((await git(['rev-list', '--count', '--no-merges', `${start}..${source.branch}`], { cwd })).trim());
  try {
    if (strategy === 'branch-per-source') return await mergeNoFf(cwd, source, head, start);
    if (own === 0) return { ok: true, commitsApplied: 0 } as const;
    if (strategy === 'cherry-pick') {
      const out = await gitRaw(
        ['cherry-pick', '--allow-empty', '--keep-redundant-commits', `${start}..${source.branch}`],
        {
          cwd,
        },
      );
      if (out.code !== 0) return await conflictOr(cwd, out.stderr, ['cherry-pick', '--abort']);
    } else {
      const patches = await git(['format-patch', '--stdout', '--no-signature', `${start}..${source.branch}`], { cwd });
      const out = await gitRaw(['am', '--3way', '--quiet', '--keep-non-patch'], { cwd, input: patches });
      if (out.code !== 0) return await conflictOr(cwd, out.stderr, ['am', '--abort']);
    }
    const applied = Number((await git(['rev-list', '--count', `${head}..HEAD`], { cwd })).trim());
    return { ok: true, commitsApplied: applied } as const;
  } catch (error) {
    return { ok: false, reason: 'error', message: error instanceof Error ? error.message : String(error) } as const;
  }
}

async function mergeNoFf(cwd: string, source: MergeSource, head: string, start: string): Promise<MergeOutcome> {
  const message = `Merge task: ${source.name}`;
  const out = await gitRaw(['merge', '--no-ff', '--no-edit', '-m', message, source.branch], { cwd });
  if (out.code !== 0) return conflictOr(cwd, out.stderr || out.stdout, ['merge', '--abort']);
  const applied = await git(['rev-list', '--count', '--no-merges', `${source.branch}`, `^${head}`, `^${start}`], {
    cwd,
  });
  return { ok: true, commitsApplied: Number(applied.trim()) };
}

/** The conflicting paths, then the abort; an error when nothing conflicts. */
async function conflictOr(cwd: string, stderr: string, abort: string[]): Promise<MergeOutcome> {
  const files = (await gitRaw(['diff', '--name-only', '--diff-filter=U'], { cwd })).stdout
    .split('\n')
    .filter((l) => l !== '');
  await gitRaw(abort, { cwd });
  if (files.length > 0) return { ok: false, reason: 'conflict', files };
  return { ok: false, reason: 'error', message: stderr.trim().split('\n').slice(-3).join(' ') || 'merge failed' };
}

async function resetTo(cwd: string, commit: string): Promise<void> {
  for (const abort of [
    ['merge', '--abort'],
    ['am', '--abort'],
    ['cherry-pick', '--abort'],
  ]) {
    await gitRaw(abort, { cwd });
  }
  await git(['reset', '--quiet', '--hard', commit], { cwd });
  await git(['clean', '-fdq'], { cwd });
}

async function moveTarget(repo: Repo, target: string, at: string | null, before: string, after: string) {
  await withRepoLock(repo.commonDir, async () => {
    if (at !== null) {
      await git(['merge', '--quiet', '--ff-only', after], { cwd: at });
    } else {
      await git(['update-ref', '-m', 'colony: merge', `refs/heads/${target}`, after, before], { cwd: repo.root });
    }
  });
}

function tail(run: CommandResult): string {
  return `${run.stdout}${run.stderr}`.split('\n').slice(-20).join('\n').slice(-2000);
}

/** Merges branches into a worktree's checked-out HEAD (a dependent task's start); aborts on conflict. */
export async function mergeIntoWorktree(
  cwd: string,
  branches: readonly { readonly name: string; readonly branch: string }[],
): Promise<MergeOutcome> {
  for (const dep of branches) {
    const out = await gitRaw(['merge', '--no-ff', '--no-edit', '-m', `Merge dependency: ${dep.name}`, dep.branch], {
      cwd,
    });
    if (out.code !== 0) return conflictOr(cwd, out.stderr || out.stdout, ['merge', '--abort']);
  }
  return { ok: true, commitsApplied: 0 };
}
