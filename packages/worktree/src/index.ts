/**
 * @swarm/worktree: colony's one door to git (the git CLI; isomorphic-git only for the
 * read-only root and branch lookup). This file is the whole public API.
 */

// Running git
export { GitError, type GitErrorKind, type GitOptions, type GitResult, git, gitRaw, withRepoLock } from './_git';
// Commands in worktrees
export { type CommandOptions, type CommandResult, DEFAULT_MAX_OUTPUT_BYTES, runCommand } from './exec';
export {
  commandsFor,
  type ExecParallelResult,
  type ExecParallelSpec,
  type ExecResult,
  execParallel,
  resolveAll,
} from './exec-parallel';
export {
  colonyWorktrees,
  isInside,
  POOL_DIR,
  resolveWorkspace,
  swarmBranch,
  swarmLogFile,
  swarmTaskLayout,
  type Workspace,
  workspaceLayout,
  worktreesRoot,
} from './layout';
// Merging
export {
  checkMergeTarget,
  MERGE_STRATEGIES,
  type MergeOptions,
  type MergeOutcome,
  type MergeReport,
  type MergeSource,
  type MergeStrategy,
  mergeBranches,
  mergeBranches as merge,
  mergeIntoWorktree,
  type SourceResult,
} from './merge';
// The recycled-worktree pool
export {
  type ForkedWorktree,
  forkWorktree,
  POOL_DEFAULT_CAPACITY,
  POOL_MAX_AGE_MS,
  type PoolSlot,
  type PrunePoolOptions,
  poolCapacity,
  poolRoot,
  poolSlots,
  prunePool,
  type ReleasedWorktree,
  releaseWorktree,
} from './pool';
// Process groups (recovery) and secret masking
export { groupAlive, killOwnedGroup, ownsGroup, processStartTime } from './process-groups';
export { MASK, MIN_SECRET_LENGTH, secretRedactor } from './redact';
// Repositories
export {
  COLONY_DIR,
  colonyDir,
  gitVersion,
  isValidBranch,
  MIN_GIT_VERSION,
  openRepo,
  type Repo,
  RepoError,
  requireGit,
  resolveCommit,
  tryResolve,
  versionAtLeast,
} from './repo';
export { locateRepo, type RepoLocation } from './repo-lookup';
// The OS sandbox (bubblewrap, sandbox-exec)
export { type BwrapPlan, bwrapArgs } from './sandbox/bwrap';
export { type DetectOptions, detectSandbox, type SandboxKind, type SandboxStatus } from './sandbox/detect';
export { type MacosPlan, macosProfile, sandboxExecArgs } from './sandbox/macos-profile';
export {
  SANDBOX_MODES,
  type SandboxConfig,
  SandboxConfigSchema,
  type SandboxMode,
  type SandboxPolicy,
  sandboxPolicy,
} from './sandbox/policy';
export { planSpawn, type SandboxRequest, type SpawnPlan } from './sandbox/wrap';
export { type StreamRedactor, streamRedactor } from './stream-redactor';
// Swarms
export { type DagCheck, type DagTask, TASK_NAME, topologicalOrder, validateDag } from './swarm/dag';
export { escapes, type PreparedSwarm, prepareSwarm, runPrepared, SwarmSpecError } from './swarm/engine';
export type {
  RunState,
  SwarmMergeResult,
  SwarmRecorder,
  SwarmRunResult,
  SwarmSpec,
  SwarmTaskResult,
  SwarmTaskSpec,
  WorkerProgress,
  WorkerState,
} from './swarm/types';
// Workspace primitives
export {
  type DestroyOutcome,
  destroyRefusal,
  destroyWorkspace,
  destroyWorkspaces,
  type ForkedWorkspace,
  forkNames,
  forkWorkspaces,
  type ListedWorkspace,
  listWorkspaces,
  mergeWorkspaces,
  type WorkspaceMergeResult,
} from './workspaces';
// Worktrees
export {
  type AutoCommitResult,
  autoCommit,
  type CreatedWorktree,
  type CreateWorktreeOptions,
  createWorktree,
  deleteBranch,
  isMerged,
  listBranches,
  listWorktrees,
  lockWorktree,
  type RemovedWorktree,
  type RemoveWorktreeOptions,
  removeWorktree,
  unlockWorktree,
  type WorktreeInfo,
  type WorktreeStatus,
  worktreeStatus,
  worktreeStatus as status,
} from './worktrees';
