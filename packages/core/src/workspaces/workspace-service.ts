/**
 * @module workspaces/workspace-service
 * The workspace tools and exec_parallel over @swarm/worktree: opt-in (`allowExec`),
 * rate-limited per workspace or worktree, refusals coded.
 */
import type { RateLimiter } from '@swarm/coordination';
import {
  ColonyError,
  type ExecParallelInput,
  type WorkspaceBackend,
  type WorkspaceDestroyInput,
  type WorkspaceForkInput,
  type WorkspaceListInput,
  type WorkspaceMergeInput,
} from '@swarm/tools';
import {
  colonyWorktrees,
  commandsFor,
  destroyRefusal,
  destroyWorkspaces,
  execParallel,
  forkNames,
  forkWorkspaces,
  listWorkspaces,
  mergeWorkspaces,
  openRepo,
  type Repo,
  resolveAll,
  type SandboxPolicy,
  type Workspace,
} from '@swarm/worktree';
import { coded, execNotAllowed } from './_refusals';

export interface WorkspaceServiceOptions {
  readonly allowExec: boolean;
  readonly limiter: RateLimiter;
  /** Runs before each call (recovers interrupted runs once per process). */
  readonly beforeCall?: () => Promise<void>;
  /** The OS sandbox of exec_parallel commands (colony's `sandbox` setting). */
  readonly sandbox?: SandboxPolicy;
}

export function createWorkspaceBackend(options: WorkspaceServiceOptions): WorkspaceBackend {
  const guard = async <T>(tool: string, fn: () => Promise<T>): Promise<T> => {
    if (!options.allowExec) throw execNotAllowed(tool);
    await options.beforeCall?.();
    return coded(fn);
  };
  return {
    fork: (args) => guard('workspace_fork', () => fork(options.limiter, args)),
    list: (args) => guard('workspace_list', () => list(args)),
    merge: (args) => guard('workspace_merge', () => merge(args)),
    destroy: (args) => guard('workspace_destroy', () => destroy(args)),
    execParallel: (args) => guard('exec_parallel', () => exec(options.limiter, options.sandbox, args)),
  };
}

async function fork(limiter: RateLimiter, args: WorkspaceForkInput) {
  const repo = await openRepo(args.repo_root);
  const names = await forkNames(repo, args.count, args.names);
  const taken = new Set((await colonyWorktrees(repo)).map((w) => w.workspace_name));
  const clash = names.find((n, i) => taken.has(n) || names.indexOf(n) !== i);
  if (clash !== undefined) {
    throw new ColonyError('INVALID_PARAMETERS', `workspace "${clash}" already exists or is named twice`, {
      details: { fields: ['names'], name: clash },
    });
  }
  limiter.take('workspace_fork', args.agent, names.length);
  return { workspaces: await forkWorkspaces(repo, args.base_ref, names) };
}

async function list(args: WorkspaceListInput) {
  const workspaces = await listWorkspaces(await openRepo(args.repo_root));
  return { workspaces, count: workspaces.length };
}

/** Every id resolved, or WORKSPACE_NOT_FOUND naming the unknown ones. */
async function resolveEvery(ids: readonly string[], repo: Repo | null): Promise<Workspace[]> {
  const found = await resolveAll(ids, repo);
  const unknown = ids.filter((_, i) => found[i] === undefined);
  if (unknown.length > 0) {
    throw new ColonyError('WORKSPACE_NOT_FOUND', `unknown workspace(s): ${unknown.join(', ')}`, {
      details: { workspace_ids: unknown },
    });
  }
  return found as Workspace[];
}

async function merge(args: WorkspaceMergeInput) {
  const repo = await openRepo(args.repo_root);
  const workspaces = await resolveEvery(args.workspace_ids, repo);
  const results = await mergeWorkspaces(repo, workspaces, args.merge_target, args.merge_strategy);
  return { merge: { strategy: args.merge_strategy, target_workspace: args.merge_target, results } };
}

async function destroy(args: WorkspaceDestroyInput) {
  const repo = args.repo_root ? await openRepo(args.repo_root) : null;
  const workspaces = await resolveEvery(args.workspace_ids, repo);
  if (!args.force) {
    // Every workspace is checked before any is removed.
    for (const ws of workspaces) {
      const refusal = await destroyRefusal(ws.repo, ws);
      if (refusal) {
        const code = refusal.reason === 'dirty' ? 'WORKSPACE_DIRTY' : 'WORKSPACE_UNMERGED';
        const why = refusal.reason === 'dirty' ? 'has uncommitted changes' : 'holds commits no other branch has';
        throw new ColonyError(code, `workspace ${ws.workspace_name} ${why}: merge it or pass force: true`, {
          details: { workspace_id: ws.workspace_id, files: refusal.files },
        });
      }
    }
  }
  // Each goes into the worktree pool when it can (the next fork reuses it), else is removed.
  const destroyed = [];
  for (const outcome of await destroyWorkspaces(workspaces, true)) {
    if (outcome.ok) destroyed.push({ workspace_id: outcome.workspace_id, branch_deleted: outcome.branch_deleted });
  }
  return { destroyed, count: destroyed.length };
}

async function exec(limiter: RateLimiter, sandbox: SandboxPolicy | undefined, args: ExecParallelInput) {
  commandsFor(args);
  const repo = args.repo_root ? await openRepo(args.repo_root) : null;
  const resolved = await resolveAll(args.workspace_ids, repo);
  if (resolved.every((w) => w === undefined)) {
    throw new ColonyError('WORKSPACE_NOT_FOUND', `no such workspace: ${args.workspace_ids.join(', ')}`, {
      details: { workspace_ids: args.workspace_ids },
    });
  }
  limiter.take('exec_parallel', args.agent, args.workspace_ids.length);
  return execParallel({ ...args, sandbox }, resolved);
}
