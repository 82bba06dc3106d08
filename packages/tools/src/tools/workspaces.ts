/**
 * @module tools/workspaces
 * Seed 004's workspace primitives on git worktrees (toolset `runtime`): workspace_fork,
 * workspace_list, workspace_merge, workspace_destroy and exec_parallel. A workspace is
 * a worktree at `<repo_root>/.colony/worktrees/<name>` on branch `colony/ws/<name>`;
 * its workspace_id is the absolute path. Schemas, result types, the backend slice and
 * the definitions live here.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, branchName, repoRoot } from '../schemas';
import {
  envNames,
  envVars,
  mergeStrategy,
  RUNTIME_NOTES,
  shellCommand,
  taskName,
  workdir,
  workspaceIds,
} from './_runtime';

export const WorkspaceForkInput = z.strictObject({
  repo_root: repoRoot,
  base_ref: branchName.default('HEAD'),
  count: z.int().min(1).max(20).default(1),
  names: z.array(taskName).min(1).max(20).optional(),
  agent: agentName.default('mcp'),
});
export type WorkspaceForkInput = z.output<typeof WorkspaceForkInput>;

export interface WorkspaceForkResult {
  workspaces: { workspace_id: string; workspace_name: string; branch: string; base_commit: string }[];
}

export const WorkspaceListInput = z.strictObject({ repo_root: repoRoot });
export type WorkspaceListInput = z.output<typeof WorkspaceListInput>;

export interface WorkspaceListResult {
  workspaces: {
    workspace_id: string;
    workspace_name: string;
    branch: string | null;
    head: string | null;
    locked: boolean;
    clean: boolean;
  }[];
  count: number;
}

export const WorkspaceMergeInput = z.strictObject({
  repo_root: repoRoot,
  workspace_ids: workspaceIds,
  merge_target: branchName,
  merge_strategy: mergeStrategy,
});
export type WorkspaceMergeInput = z.output<typeof WorkspaceMergeInput>;

export interface MergeSourceResult {
  source: string;
  success: boolean;
  commits_applied: number;
  conflicts: string[];
  error?: string;
  log_tail?: string;
}

export interface WorkspaceMergeResult {
  merge: { strategy: string; target_workspace: string; results: MergeSourceResult[] };
}

export const WorkspaceDestroyInput = z.strictObject({
  repo_root: repoRoot.optional(),
  workspace_ids: workspaceIds,
  force: z.boolean().default(false),
});
export type WorkspaceDestroyInput = z.output<typeof WorkspaceDestroyInput>;

export interface WorkspaceDestroyResult {
  destroyed: { workspace_id: string; branch_deleted: boolean }[];
  count: number;
}

export const ExecParallelInput = z.strictObject({
  repo_root: repoRoot.optional(),
  workspace_ids: workspaceIds,
  commands: z.union([shellCommand, z.array(shellCommand).min(1).max(20)]),
  timeout_secs: z.int().min(1).max(3600).default(120),
  workdir: workdir.optional(),
  env: envVars.optional(),
  max_output_bytes: z.int().min(1).max(16_777_216).default(262_144),
  agent: agentName.default('mcp'),
});
export type ExecParallelInput = z.output<typeof ExecParallelInput>;

export interface ExecParallelResult {
  results: {
    workspace_id: string;
    workspace_name: string;
    exit_code: number;
    stdout: string;
    stderr: string;
    timed_out: boolean;
    truncated: boolean;
  }[];
  summary: { total: number; succeeded: number; failed: number; timed_out: number; elapsed_ms: number };
}

/** What a backend provides for the workspace tools; asynchronous (they run git and commands). */
export interface WorkspaceBackend {
  fork(args: WorkspaceForkInput): Promise<WorkspaceForkResult>;
  list(args: WorkspaceListInput): Promise<WorkspaceListResult>;
  merge(args: WorkspaceMergeInput): Promise<WorkspaceMergeResult>;
  destroy(args: WorkspaceDestroyInput): Promise<WorkspaceDestroyResult>;
  execParallel(args: ExecParallelInput): Promise<ExecParallelResult>;
}

export interface HasWorkspaces {
  readonly workspaces: WorkspaceBackend;
}

export const workspaceFork = defineTool({
  name: 'workspace_fork',
  title: 'Fork workspaces',
  description: 'Create count (or one per name) git worktrees of repo_root from base_ref, each on its own branch.',
  input: WorkspaceForkInput,
  surface: 'runtime',
  mutates: true,
  hints: { destructive: false, idempotent: false },
  async: true,
  docs: {
    returns:
      '{ workspaces: [ { workspace_id, workspace_name, branch, base_commit } ] }; workspace_id is the absolute ' +
      'worktree path, branch `colony/ws/<name>`.',
    errors: ['EXEC_NOT_ALLOWED', 'RATE_LIMITED', 'GIT_TOO_OLD'],
    notes:
      `Names default to ws-1, ws-2... (skipping taken ones). Worktrees are locked while they exist. Rate ` +
      `limit: one token per worktree created, from the calling agent's bucket (default 40 per 60 s, ` +
      `settings.json rateLimits.workspace_fork); a refused call creates nothing. ${RUNTIME_NOTES}`,
    example: { repo_root: '/abs/repo', base_ref: 'HEAD', count: 2 },
  },
  handler: (args, b: HasWorkspaces) => b.workspaces.fork(args),
});

export const workspaceList = defineTool({
  name: 'workspace_list',
  title: 'List workspaces',
  description:
    'The colony-made worktrees of repo_root (forked workspaces and swarm tasks), with branch and cleanliness.',
  input: WorkspaceListInput,
  surface: 'runtime',
  mutates: false,
  docs: {
    returns: '{ workspaces: [ { workspace_id, workspace_name, branch, head, locked, clean } ], count }.',
    errors: ['EXEC_NOT_ALLOWED', 'GIT_TOO_OLD'],
    notes: RUNTIME_NOTES,
    example: { repo_root: '/abs/repo' },
  },
  handler: (args, b: HasWorkspaces) => b.workspaces.list(args),
});

export const workspaceMerge = defineTool({
  name: 'workspace_merge',
  title: 'Merge workspaces',
  description:
    "Merge workspaces' branches into merge_target, in order, by sequential, branch-per-source or cherry-pick.",
  input: WorkspaceMergeInput,
  surface: 'runtime',
  mutates: true,
  hints: { destructive: false, idempotent: false },
  async: true,
  docs: {
    returns:
      '{ merge: { strategy, target_workspace, results: [ { source, success, commits_applied, conflicts, error? } ] } ' +
      '}.',
    errors: ['EXEC_NOT_ALLOWED', 'WORKSPACE_NOT_FOUND', 'DIRTY_TREE', 'GIT_TOO_OLD'],
    notes:
      `sequential = format-patch + am --3way; branch-per-source = merge --no-ff ("Merge task: <name>"); cherry-pick ` +
      `= the workspace's commits. A conflicting source is aborted and reported with its paths; the target stays ` +
      `exactly as before it and the others still merge. Merging happens in a temporary worktree; a checked-out ` +
      `target must be clean (DIRTY_TREE) and is fast-forwarded at the end. Commit in the workspaces first ` +
      `(exec_parallel with git commit). ${RUNTIME_NOTES}`,
    example: {
      repo_root: '/abs/repo',
      workspace_ids: ['ws-1', 'ws-2'],
      merge_target: 'main',
      merge_strategy: 'branch-per-source',
    },
  },
  handler: (args, b: HasWorkspaces) => b.workspaces.merge(args),
});

export const workspaceDestroy = defineTool({
  name: 'workspace_destroy',
  title: 'Destroy workspaces',
  description: 'Remove workspaces (worktree and branch); refuses a dirty or unmerged one unless force.',
  input: WorkspaceDestroyInput,
  surface: 'runtime',
  mutates: true,
  hints: { destructive: true, idempotent: true },
  async: true,
  docs: {
    returns: '{ destroyed: [ { workspace_id, branch_deleted } ], count }.',
    errors: ['EXEC_NOT_ALLOWED', 'WORKSPACE_NOT_FOUND', 'WORKSPACE_DIRTY', 'WORKSPACE_UNMERGED', 'GIT_TOO_OLD'],
    notes:
      `Every workspace is checked before any is removed: uncommitted changes answer WORKSPACE_DIRTY, commits no ` +
      `other branch holds WORKSPACE_UNMERGED (with the workspace in details), so no work is lost silently. force: ` +
      `true removes anyway. ${RUNTIME_NOTES}`,
    example: { repo_root: '/abs/repo', workspace_ids: ['ws-1'], force: false },
  },
  handler: (args, b: HasWorkspaces) => b.workspaces.destroy(args),
});

export const execParallel = defineTool({
  name: 'exec_parallel',
  title: 'Run in parallel',
  description: 'Run one command (broadcast) or one per workspace across up to 20 workspaces at once; one result each.',
  input: ExecParallelInput,
  surface: 'runtime',
  mutates: true,
  hints: { destructive: true, idempotent: false, openWorld: true },
  async: true,
  docs: {
    returns:
      '{ results: [ { workspace_id, workspace_name, exit_code, stdout, stderr, timed_out, truncated } ], summary: { ' +
      'total, succeeded, failed, timed_out, elapsed_ms } }, one result per input in input order.',
    errors: ['EXEC_NOT_ALLOWED', 'WORKSPACE_NOT_FOUND', 'RATE_LIMITED'],
    notes:
      `Partial success: an unknown workspace gets exit_code -1 and the reason in stderr; WORKSPACE_NOT_FOUND ` +
      `only when every id is unknown. commands of another length than workspace_ids, or a workdir leaving the ` +
      `worktree, is INVALID_PARAMETERS. Commands run concurrently across workspaces and one at a time per ` +
      `workspace; on timeout the command's whole process group is killed (exit_code -1, timed_out true). ` +
      `max_output_bytes caps each stream (truncated: true). env values never reach the store, logs or ` +
      `responses: values of 4+ characters are masked as *** in the output (before it is capped, and across ` +
      `output chunks; shorter values are flags, not masked), and an idempotency_key's stored fingerprint keeps ` +
      `env names only (a retry that changes only an env value replays the first answer). repo_root is needed ` +
      `to name workspaces by name or branch. Rate limit: one token per workspace (default 60 per 60 s, ` +
      `rateLimits.exec_parallel). ${RUNTIME_NOTES}`,
    example: { repo_root: '/abs/repo', workspace_ids: ['ws-1', 'ws-2'], commands: 'npm test', timeout_secs: 120 },
  },
  fingerprint: (args) => ({ ...args, env: envNames(args.env) }),
  handler: (args, b: HasWorkspaces) => b.workspaces.execParallel(args),
});

export const workspaceTools = [workspaceFork, workspaceList, workspaceMerge, workspaceDestroy, execParallel];
