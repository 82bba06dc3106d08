/**
 * @module backend
 * What a backend must provide for the tools to run: one method per tool, taking the
 * validated contract arguments and answering the contract's shapes (snake_case, as on
 * the wire). @swarm/coordination implements it on SQLite; another store could too.
 * Methods throw ColonyError for refusals; they run synchronously so a mutating call
 * and its idempotency record commit in one transaction.
 */
import type { BatonBackend, ClaimBackend, LinkBackend, MessageBackend } from './backend-coordination';
import type { MemoryBackend, TaskBackend } from './backend-memory';
import type { MeshBackend } from './backend-mesh';
import type { PlanBackend, ProfileBackend } from './backend-plans';
import type { QueenBackend, ReadyBackend, RescueBackend } from './backend-ready';
import type { ProposalBackend, SpecBackend, SuggestBackend } from './backend-specs';
import type { SwarmBackend } from './backend-swarm';
import type { AttentionInboxInput, AttentionInboxResult } from './tools/attention';
import type { ExamplesBackend } from './tools/examples';
import type { HivemindContextInput, HivemindContextResult, HivemindInput, HivemindResult } from './tools/hivemind';
import type { SavingsReport, SavingsReportInput } from './tools/savings';
import type { BridgeStatusInput, BridgeStatusResult, StartupPanelInput, StartupPanelResult } from './tools/startup';
import type { SwarmRunBackend } from './tools/swarm-runs';
import type { WorkspaceBackend } from './tools/workspaces';

export type * from './backend-coordination';
export type * from './backend-memory';
export type * from './backend-plans';
export type * from './backend-ready';
export type * from './backend-specs';

export interface SavingsBackend {
  report(args: SavingsReportInput): SavingsReport;
}

/** The live lane map (hivemind, hivemind_context). */
export interface LaneBackend {
  hivemind(args: HivemindInput): HivemindResult;
  context(args: HivemindContextInput): HivemindContextResult;
}

/** One-payload startup surfaces (startup_panel, bridge_status). */
export interface StartupBackend {
  panel(args: StartupPanelInput): StartupPanelResult;
  bridgeStatus(args: BridgeStatusInput): BridgeStatusResult;
}

export interface ColonyBackend {
  readonly memory: MemoryBackend;
  readonly lanes: LaneBackend;
  readonly startup: StartupBackend;
  readonly tasks: TaskBackend;
  readonly messages: MessageBackend;
  readonly links: LinkBackend;
  readonly claims: ClaimBackend;
  readonly batons: BatonBackend;
  /** Seed-000 framework tools (toolset `framework`). */
  readonly swarm: SwarmBackend;
  /** Seed-001 context mesh and agent messages (toolset `framework`). */
  readonly mesh: MeshBackend;
  readonly plans: PlanBackend;
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

/** The budget object of compact reads (ARCHITECTURE principle 5). */
export interface BudgetInfo {
  items_available: number;
  items_returned: number;
  collapsed_count: number;
  estimated_tokens_returned: number;
  hydrate_with: string;
  why_collapsed: string | null;
}

export interface AttentionBackend {
  inbox(args: AttentionInboxInput): AttentionInboxResult;
}
