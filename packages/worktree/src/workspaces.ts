/**
 * @module workspaces
 * The workspace primitives of seed 004 on worktrees: fork (N worktrees from a base),
 * list, merge into a branch, destroy (refusing a dirty or unmerged workspace unless
 * forced, so no work is lost silently). Expected outcomes are values.
 */
import { availableParallelism } from 'node:os';
import { git } from './_git';
import { colonyWorktrees, type Workspace, workspaceLayout } from './layout';
import { type MergeStrategy, mergeBranches } from './merge';
import { forkWorktree, releaseWorktree } from './pool';
import { type Repo, resolveCommit } from './repo';
import { worktreeStatus } from './worktrees';

export interface ForkedWorkspace {
  workspace_id: string;
  workspace_name: string;
  branch: string;
  base_commit: string;
}

/** Names for `count` new workspaces: `names` as given, else `ws-1`, `ws-2`... skipping taken ones. */
export async function forkNames(repo: Repo, count: number, names?: readonly string[]): Promise<string[]> {
  if (names && names.length > 0) return [...names];
  const taken = new Set((await colonyWorktrees(repo)).map((w) => w.workspace_name));
  const out: string[] = [];
  for (let i = 1; out.length < count; i++) {
    const name = `ws-${i}`;
    if (!taken.has(name)) out.push(name);
  }
  return out;
}

export async function forkWorkspaces(
  repo: Repo,
  baseRef: string,
  names: readonly string[],
): Promise<ForkedWorkspace[]> {
  const base = await resolveCommit(repo.root, baseRef);
  // Metadata is serialized by the repository lock; the checkouts fill in parallel; pooled
  // worktrees (recycled by destroy) are taken first, so only the files that differ are written.
  return Promise.all(
    names.map(async (name) => {
      const layout = workspaceLayout(repo, name);
      const wt = await forkWorktree(repo, { ...layout, base, lockReason: `colony workspace ${name}` });
      return { workspace_id: wt.path, workspace_name: name, branch: wt.branch, base_commit: base };
    }),
  );
}

export interface ListedWorkspace {
  workspace_id: string;
  workspace_name: string;
  branch: string | null;
  head: string | null;
  locked: boolean;
  clean: boolean;
}

export async function listWorkspaces(repo: Repo): Promise<ListedWorkspace[]> {
  const all = await colonyWorktrees(repo);
  return Promise.all(
    all.map(async (w) => ({
      workspace_id: w.workspace_id,
      workspace_name: w.workspace_name,
      branch: w.branch,
      head: w.head,
      locked: w.locked,
      clean: await worktreeStatus(w.workspace_id)
        .then((s) => s.clean)
        .catch(() => false),
    })),
  );
}

export interface WorkspaceMergeResult {
  source: string;
  success: boolean;
  commits_applied: number;
  conflicts: string[];
  error?: string;
}

export async function mergeWorkspaces(
  repo: Repo,
  workspaces: readonly Workspace[],
  target: string,
  strategy: MergeStrategy,
): Promise<WorkspaceMergeResult[]> {
  const sources = workspaces.map((w) => ({ name: w.workspace_name, branch: w.branch ?? (w.head as string) }));
  const report = await mergeBranches(repo, { target, strategy, sources });
  return report.results.map(({ source, outcome }) => ({
    source,
    success: outcome.ok,
    commits_applied: outcome.ok ? outcome.commitsApplied : 0,
    conflicts: !outcome.ok && outcome.reason === 'conflict' ? outcome.files : [],
    ...(!outcome.ok && outcome.reason !== 'conflict'
      ? { error: outcome.reason === 'error' ? outcome.message : 'verify failed' }
      : {}),
  }));
}

export type DestroyOutcome =
  | { readonly ok: true; readonly workspace_id: string; readonly branch_deleted: boolean }
  | {
      readonly ok: false;
      readonly workspace_id: string;
      readonly reason: 'dirty' | 'unmerged';
      readonly files: string[];
    };

/**
 * Removes a workspace (recycled into the worktree pool when it can be) and its branch. Without `force`: a dirty worktree is refused
 * (`dirty`, with its files), and so is a branch holding commits reachable from no other
 * branch (`unmerged`).
 */
export async function destroyWorkspace(repo: Repo, ws: Workspace, force: boolean): Promise<DestroyOutcome> {
  if (!force) {
    const refusal = await destroyRefusal(repo, ws);
    if (refusal) return refusal;
  }
  // Into the pool when it may go (the next fork reuses it), else removed.
  const removed = await releaseWorktree(repo, ws.workspace_id, { force, deleteBranch: 'always' });
  return { ok: true, workspace_id: ws.workspace_id, branch_deleted: removed.branchDeleted };
}

/**
 * Destroys several workspaces, at most one per core at a time (each resets and cleans a
 * tree, or deletes one); outcomes in the order given.
 */
export async function destroyWorkspaces(workspaces: readonly Workspace[], force: boolean): Promise<DestroyOutcome[]> {
  const out: DestroyOutcome[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < workspaces.length; i = next++) {
      const ws = workspaces[i] as Workspace;
      out[i] = await destroyWorkspace(ws.repo, ws, force);
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), workspaces.length) }, lane));
  return out;
}

/** Why a workspace may not be destroyed without force (dirty, or unmerged commits); null when it may. */
export async function destroyRefusal(
  repo: Repo,
  ws: Workspace,
): Promise<Extract<DestroyOutcome, { ok: false }> | null> {
  const status = await worktreeStatus(ws.workspace_id);
  if (!status.clean) return { ok: false, workspace_id: ws.workspace_id, reason: 'dirty', files: status.files };
  if (ws.branch && (await unmergedCommits(repo, ws.branch)) > 0) {
    return { ok: false, workspace_id: ws.workspace_id, reason: 'unmerged', files: [] };
  }
  return null;
}

/** Commits of `branch` that no other branch holds. */
async function unmergedCommits(repo: Repo, branch: string): Promise<number> {
  const out = await git(['rev-list', '--count', `refs/heads/${branch}`, '--not', `--exclude=${branch}`, '--branches'], {
    cwd: repo.root,
  });
  return Number(out.trim());
}
