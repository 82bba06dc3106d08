/**
 * @module backend
 * What a backend must provide for the tools to run: one method per tool, taking the
 * validated contract arguments and answering the contract's shapes (snake_case, as on
 * the wire). @swarm/coordination implements it on SQLite; another store could too.
 * Methods throw ColonyError for refusals; they run synchronously so a mutating call
 * and its idempotency record commit in one transaction.
 *
 * Each tool family's file (tools/<family>.ts) declares its slice of this interface
 * beside its schemas, result types and definitions; this file only composes them.
 */
import type { AttentionBackend } from './tools/attention';
import type { ClaimBackend } from './tools/claims';
import type { ExamplesBackend } from './tools/examples';
import type { FrameworkContextBackend } from './tools/framework-context';
import type { FrameworkFilesBackend } from './tools/framework-files';
import type { FrameworkQueueBackend } from './tools/framework-queue';
import type { BatonBackend } from './tools/handoffs';
import type { LaneBackend } from './tools/hivemind';
import type { LinkBackend } from './tools/links';
import type { MemoryBackend } from './tools/memory';
import type { MeshContextBackend } from './tools/mesh-context';
import type { MeshMessagesBackend } from './tools/mesh-messages';
import type { MessageBackend } from './tools/messages';
import type { PlanSubtaskBackend } from './tools/plan-subtasks';
import type { PlanBackend } from './tools/plans';
import type { ProfileBackend } from './tools/profiles';
import type { ProposalBackend } from './tools/proposals';
import type { QueenBackend } from './tools/queen';
import type { QuotaBackend } from './tools/quota';
import type { ReadyBackend } from './tools/ready';
import type { RescueBackend } from './tools/rescue';
import type { SavingsBackend } from './tools/savings';
import type { SpecBackend } from './tools/specs';
import type { StartupBackend } from './tools/startup';
import type { SuggestBackend } from './tools/suggest';
import type { SwarmRunBackend } from './tools/swarm-runs';
import type { TaskBackend } from './tools/tasks';
import type { WorkspaceBackend } from './tools/workspaces';

/** Seed-000 framework tools: workspace files, the shared context, the work queue. */
export interface FrameworkBackend {
  readonly files: FrameworkFilesBackend;
  readonly context: FrameworkContextBackend;
  readonly queue: FrameworkQueueBackend;
}

/** Seed-001 context mesh and agent messages. */
export interface MeshBackend {
  readonly context: MeshContextBackend;
  readonly messages: MeshMessagesBackend;
}

export interface ColonyBackend {
  readonly memory: MemoryBackend;
  readonly lanes: LaneBackend;
  readonly startup: StartupBackend;
  readonly tasks: TaskBackend;
  readonly messages: MessageBackend;
  readonly links: LinkBackend;
  readonly claims: ClaimBackend;
  /** Handoffs and relays (tools/handoffs.ts) and quota claims (tools/quota.ts). */
  readonly batons: BatonBackend & QuotaBackend;
  /** Seed-000 framework tools (toolset `framework`). */
  readonly framework: FrameworkBackend;
  /** Seed-001 context mesh and agent messages (toolset `framework`). */
  readonly mesh: MeshBackend;
  /** Validate and publish (tools/plans.ts) and the sub-task half (tools/plan-subtasks.ts). */
  readonly plans: PlanBackend & PlanSubtaskBackend;
  readonly profiles: ProfileBackend;
  readonly rescue: RescueBackend;
  readonly ready: ReadyBackend;
  readonly queen: QueenBackend;
  readonly savings: SavingsBackend;
  readonly proposals: ProposalBackend;
  readonly specs: SpecBackend;
  readonly suggest: SuggestBackend;
  readonly attention: AttentionBackend;
  /** Example projects under <repo_root>/examples/ (foraging). */
  readonly examples: ExamplesBackend;
  /** Seed-004 workspaces and exec_parallel on git worktrees (toolset `runtime`). */
  readonly workspaces: WorkspaceBackend;
  /** Seed-004 swarm_run, swarm_status, swarm_collect (toolset `runtime`). */
  readonly swarmRuns: SwarmRunBackend;
}
