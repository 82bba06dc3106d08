/**
 * @module workspaces/recover
 * Recovers an interrupted swarm run. First the commands its dead process left running
 * are killed: each task's recorded process group, only while it is still ours (its
 * leader's start time as recorded, or a member working inside the task's worktree; see
 * @swarm/worktree process-groups), so a reused pid is never signalled. Then its
 * worktrees: each is auto-committed (so nothing is lost), unlocked and removed; its
 * branch is deleted only when it holds no commit of its own (beyond where the task
 * started), else kept for the user to merge.
 */
import type { SwarmRunRow, SwarmTaskRow } from '@swarm/storage';
import {
  autoCommit,
  deleteBranch,
  gitRaw,
  killOwnedGroup,
  listWorktrees,
  openRepo,
  removeWorktree,
  tryResolve,
} from '@swarm/worktree';

export interface RecoveredRun {
  /** Process groups killed (commands left running by the dead process). */
  readonly groupsKilled: number;
  readonly worktreesRemoved: number;
  readonly branchesKept: string[];
  readonly branchesDeleted: string[];
}

export async function recoverRun(run: SwarmRunRow, tasks: readonly SwarmTaskRow[]): Promise<RecoveredRun> {
  const out = {
    groupsKilled: 0,
    worktreesRemoved: 0,
    branchesKept: [] as string[],
    branchesDeleted: [] as string[],
  };
  // Before any worktree goes: a command still running would keep writing into it.
  for (const task of tasks) {
    if (task.pgid === null || task.pgidStarted === null || task.workspaceId === null) continue;
    if (await killOwnedGroup(task.pgid, task.pgidStarted, task.workspaceId)) out.groupsKilled++;
  }
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
