/**
 * @module workspaces/recover
 * Recovers an interrupted swarm run's worktrees: each is auto-committed (so nothing
 * is lost), unlocked and removed; its branch is deleted only when it holds no commit
 * of its own (beyond where the task started), else kept for the user to merge.
 */
import type { SwarmRunRow, SwarmTaskRow } from '@swarm/storage';
import { autoCommit, deleteBranch, gitRaw, listWorktrees, openRepo, removeWorktree, tryResolve } from '@swarm/worktree';

export interface RecoveredRun {
  readonly worktreesRemoved: number;
  readonly branchesKept: string[];
  readonly branchesDeleted: string[];
}

export async function recoverRun(run: SwarmRunRow, tasks: readonly SwarmTaskRow[]): Promise<RecoveredRun> {
  const out = { worktreesRemoved: 0, branchesKept: [] as string[], branchesDeleted: [] as string[] };
  let repo: Awaited<ReturnType<typeof openRepo>>;
  try {
    repo = await openRepo(run.repoRoot);
  } catch {
    return out;
  }
  const live = new Set((await listWorktrees(repo)).map((w) => w.path));
  for (const task of tasks) {
    if (task.workspaceId !== null && live.has(task.workspaceId)) {
      try {
        await autoCommit(task.workspaceId, `swarm: auto-commit ${task.name} (recovered)`);
      } catch {
        // A worktree git cannot commit in is still removed below; its branch is judged as it stands.
      }
      if ((await removeWorktree(repo, task.workspaceId, { force: true })).removed) out.worktreesRemoved++;
    }
    if ((await tryResolve(repo.root, `refs/heads/${task.branch}`)) === null) continue;
    const from = task.startCommit ?? run.baseCommit;
    const own = await gitRaw(['rev-list', '--count', `${from}..refs/heads/${task.branch}`], { cwd: repo.root });
    if (own.code === 0 && own.stdout.trim() === '0') {
      if (await deleteBranch(repo, task.branch)) out.branchesDeleted.push(task.branch);
    } else {
      out.branchesKept.push(task.branch);
    }
  }
  return out;
}
