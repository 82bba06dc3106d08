/**
 * @module tools/swarm-runs
 * Seed 004's swarm tools on git worktrees (toolset `runtime`): swarm_run (fork, run,
 * auto-commit, merge, clean up in one call, with a depends_on DAG), and for background
 * runs swarm_status and swarm_collect. Runs and tasks are rows in the store, so status
 * survives a server restart. Schemas, result types, the backend slice and definitions.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, branchName, repoRoot, text } from '../schemas';
import { envNames, envVars, mergeStrategy, RUNTIME_NOTES, shellCommand, taskName, workdir } from './_runtime';
import type { MergeSourceResult } from './workspaces';

export const SwarmTaskInput = z.strictObject({
  name: taskName,
  command: shellCommand,
  workdir: workdir.optional(),
  env: envVars.optional(),
  depends_on: z.array(taskName).max(20).optional(),
});

export const swarmId = text(100);

export const SwarmRunInput = z.strictObject({
  repo_root: repoRoot,
  base_ref: branchName.default('HEAD'),
  tasks: z.array(SwarmTaskInput).min(1).max(20),
  env_vars: envVars.optional(),
  merge_strategy: mergeStrategy.optional(),
  merge_target: branchName.optional(),
  verify: shellCommand.optional(),
  max_parallel: z.int().min(1).max(20).default(4),
  timeout_secs: z.int().min(1).max(86_400).default(600),
  cleanup: z.boolean().default(true),
  background: z.boolean().default(false),
  agent: agentName.default('mcp'),
});
export type SwarmRunInput = z.output<typeof SwarmRunInput>;

export interface SwarmTaskResult {
  name: string;
  workspace_id: string | null;
  success: boolean;
  exit_code: number | null;
  stdout: string;
  stderr: string;
  elapsed_ms: number;
  branch: string;
  timed_out: boolean;
  skipped: boolean;
  commits: number;
}

export interface SwarmRunResult {
  swarm_id: string;
  tasks: SwarmTaskResult[];
  merge?: { strategy: string; target_workspace: string; results: MergeSourceResult[] };
  summary: {
    total_tasks: number;
    succeeded: number;
    failed: number;
    total_elapsed_ms: number;
    workers_destroyed: number;
  };
}

export type SwarmRunAnswer = SwarmRunResult | { swarm_id: string; state: 'running' };

export const SwarmStatusInput = z.strictObject({ swarm_id: swarmId });
export type SwarmStatusInput = z.output<typeof SwarmStatusInput>;

export interface SwarmStatusResult {
  swarm_id: string;
  state: 'running' | 'completed' | 'failed' | 'interrupted';
  workers: { name: string; workspace_id: string | null; state: string; exit_code?: number; elapsed_ms: number }[];
  progress: { total: number; completed: number; running: number; failed: number };
}

export const SwarmCollectInput = z.strictObject({
  swarm_id: swarmId,
  wait_secs: z.int().min(0).max(600).default(0),
});
export type SwarmCollectInput = z.output<typeof SwarmCollectInput>;

export const WorkspaceCleanInput = z.strictObject({ repo_root: repoRoot.optional() });
export type WorkspaceCleanInput = z.output<typeof WorkspaceCleanInput>;

export interface WorkspaceCleanResult {
  interrupted: string[];
  /** Commands the dead runs left running, killed (only process groups still theirs). */
  process_groups_killed: number;
  worktrees_removed: number;
  branches_kept: string[];
  branches_deleted: string[];
  /** Recycled worktrees removed from the repository's pool (`.colony/worktrees/.pool/`). */
  pool_removed: number;
}

/** What a backend provides for the swarm tools; asynchronous. */
export interface SwarmRunBackend {
  run(args: SwarmRunInput): Promise<SwarmRunAnswer>;
  status(args: SwarmStatusInput): Promise<SwarmStatusResult>;
  collect(args: SwarmCollectInput): Promise<SwarmRunResult>;
  clean(args: WorkspaceCleanInput): Promise<WorkspaceCleanResult>;
}

export interface HasSwarmRuns {
  readonly swarmRuns: SwarmRunBackend;
}

export const swarmRun = defineTool({
  name: 'swarm_run',
  title: 'Run swarm',
  description:
    'Run up to 20 shell tasks in parallel git worktrees (depends_on DAG), auto-commit, merge the successful ones ' +
    'into merge_target, clean up: one call.',
  input: SwarmRunInput,
  surface: 'runtime',
  mutates: true,
  hints: { destructive: true, idempotent: false, openWorld: true },
  async: true,
  docs: {
    returns:
      '{ swarm_id, tasks: [ { name, workspace_id, success, exit_code, stdout, stderr, elapsed_ms, branch, timed_out, ' +
      'skipped, commits } ], merge?: { strategy, target_workspace, results: [ { source, success, commits_applied, ' +
      'conflicts, error?, log_tail? } ] }, summary: { total_tasks, succeeded, failed, total_elapsed_ms, ' +
      'workers_destroyed } }; with background: true, { swarm_id, state: "running" } at once.',
    errors: ['EXEC_NOT_ALLOWED', 'DIRTY_TREE', 'RATE_LIMITED', 'GIT_TOO_OLD'],
    notes:
      `Each task runs in \`<repo_root>/.colony/worktrees/<swarm_id>/<name>\` on branch ` +
      `\`colony/<swarm_id>/<name>\`, from base_ref (any commit-ish) with its dependencies' branches merged in, ` +
      `so it sees their work. A task starts as soon as all its dependencies succeeded, at most max_parallel at ` +
      `once; a task whose dependency failed is skipped, transitively. After its command a dirty worktree is ` +
      `auto-committed ("swarm: auto-commit <name>"). Only successful tasks are merged, in task order: ` +
      `sequential = format-patch + am, branch-per-source = merge --no-ff ("Merge task: <name>"), cherry-pick = ` +
      `the task's own commits; a conflicting source is aborted and reported with its paths, leaving ` +
      `merge_target as before it. verify (optional) runs in each merged candidate before merge_target moves; a ` +
      `failing one is not merged (log_tail). commits_applied counts the source's own commits that reached the ` +
      `target. A cycle, an unknown dependency or a duplicate name is INVALID_PARAMETERS naming it; a ` +
      `checked-out merge_target with uncommitted changes is DIRTY_TREE; both before anything is created. ` +
      `cleanup removes the worktrees and deletes branches whose work landed (branches holding unmerged commits ` +
      `are kept). env_vars and env values never reach the store, logs or responses: values of 4+ characters ` +
      `are masked as *** in output, logs, stderr and log_tail (before output is capped, and across output ` +
      `chunks; shorter values are flags, not masked), the stored run keeps their names only, and so does an ` +
      `idempotency_key's stored fingerprint (a retry that changes only an env value replays the first answer). ` +
      `Per-task logs: .colony/logs/swarm/<swarm_id>/<name>.log. Rate limit: one token per worktree (default 40 ` +
      `per 60 s, rateLimits.swarm_run). ${RUNTIME_NOTES}`,
    example: {
      repo_root: '/abs/repo',
      tasks: [
        { name: 'auth', command: "claude -p 'Implement JWT auth in src/auth.ts'" },
        { name: 'tests', command: "claude -p 'Add tests for src/auth.ts'", depends_on: ['auth'] },
      ],
      merge_strategy: 'branch-per-source',
      merge_target: 'main',
      max_parallel: 4,
    },
  },
  fingerprint: (args) => ({
    ...args,
    env_vars: envNames(args.env_vars),
    tasks: args.tasks.map((t) => ({ ...t, env: envNames(t.env) })),
  }),
  handler: (args, b: HasSwarmRuns) => b.swarmRuns.run(args),
});

export const swarmStatus = defineTool({
  name: 'swarm_status',
  title: 'Swarm status',
  description: "A swarm run's state and each worker's progress, live or after a restart.",
  input: SwarmStatusInput,
  surface: 'runtime',
  mutates: false,
  docs: {
    returns:
      '{ swarm_id, state: running | completed | failed | interrupted, workers: [ { name, workspace_id, state: ' +
      'pending | waiting | executing | completed | failed | timed_out | skipped | interrupted, exit_code?, ' +
      'elapsed_ms } ], progress: { total, completed, running, failed } }.',
    errors: ['EXEC_NOT_ALLOWED', 'SWARM_NOT_FOUND'],
    notes:
      `A run whose process died reads interrupted, and so do its unfinished workers; \`colony workspace ` +
      `clean\` (or the next server start) recovers its worktrees without deleting branches that hold unmerged ` +
      `commits. ${RUNTIME_NOTES}`,
    example: { swarm_id: 'swarm-20260220-143022' },
  },
  handler: (args, b: HasSwarmRuns) => b.swarmRuns.status(args),
});

export const swarmCollect = defineTool({
  name: 'swarm_collect',
  title: 'Collect swarm',
  description: "A finished swarm run's full swarm_run response, waiting up to wait_secs for it.",
  input: SwarmCollectInput,
  surface: 'runtime',
  mutates: false,
  docs: {
    returns: "Exactly swarm_run's response once the run has finished.",
    errors: ['EXEC_NOT_ALLOWED', 'SWARM_NOT_FOUND', 'SWARM_NOT_FINISHED'],
    notes:
      `Still running after wait_secs: SWARM_NOT_FINISHED with progress. An interrupted run has no response: ` +
      `SWARM_NOT_FINISHED with state "interrupted". ${RUNTIME_NOTES}`,
    example: { swarm_id: 'swarm-20260220-143022', wait_secs: 60 },
  },
  handler: (args, b: HasSwarmRuns) => b.swarmRuns.collect(args),
});

export const workspaceClean = defineTool({
  name: 'workspace_clean',
  title: 'Clean workspaces',
  description: 'Recover interrupted swarm runs: remove their worktrees, keeping every branch that holds commits.',
  input: WorkspaceCleanInput,
  surface: 'runtime',
  mutates: true,
  hints: { destructive: true, idempotent: true },
  async: true,
  docs: {
    returns:
      '{ interrupted: [ swarm_id ], process_groups_killed, worktrees_removed, branches_kept: [ branch ], ' +
      'branches_deleted: [ branch ], pool_removed }.',
    errors: ['EXEC_NOT_ALLOWED'],
    notes:
      `A run still marked running whose process is gone is marked interrupted first (its unfinished workers ` +
      `too). The commands it left running are killed (SIGKILL to each task's recorded process group, only ` +
      `while the group is still the run's: its leader's start time matches, or a member works inside the ` +
      `task's worktree; Linux, where /proc tells). Each of its worktrees is auto-committed, then removed; a ` +
      `branch with no commit of its own is deleted, any other kept. With repo_root, the repository's pool of ` +
      `recycled worktrees (.colony/worktrees/.pool/, refilled by workspace_destroy) is emptied too. A server ` +
      `also recovers runs once, on its first runtime call. Without repo_root: every repository with ` +
      `interrupted runs. ${RUNTIME_NOTES}`,
    example: { repo_root: '/abs/repo' },
  },
  handler: (args, b: HasSwarmRuns) => b.swarmRuns.clean(args),
});

export const swarmRunTools = [swarmRun, swarmStatus, swarmCollect, workspaceClean];
