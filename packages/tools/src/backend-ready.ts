/**
 * @module backend-ready
 * Choosing work: rescue of stranded sessions, ready-work ranking with its claim
 * routing, autopilot ticks, queen goal plans. Part of the backend contract (see
 * `backend`).
 */
import type { BudgetInfo } from './backend';
import type { PlanPublishResult, PlanValidateResult } from './backend-plans';
import type { QueenPlanGoalInput } from './tools/queen';
import type { TaskAutopilotTickInput, TaskReadyForAgentInput } from './tools/ready';
import type { RescueStrandedRunInput, RescueStrandedScanInput } from './tools/rescue';

/** A session that stopped heartbeating while holding claims. */
export interface StrandedSession {
  session_id: string;
  agent: string;
  last_heartbeat_at: number;
  stale_age_minutes: number;
  task_ids: number[];
  held_claim_count: number;
}

export type BlockingUrgency = 'blocks_downstream' | 'local_claim';

export type MessageAttentionState = 'blocking_message' | 'needs_reply_message' | 'fyi_message' | 'no_pending_message';

/** One stranded (session, task): what a rescue does or did to it. */
export interface RescueEntry {
  session_id: string;
  agent: string;
  task_id: number;
  repo_root: string;
  branch: string;
  /** The session's active claims on the task, released by the rescue. */
  released_claims: string[];
  /** The fresh ones among them: the relay's transferred files. */
  inherited_claims: string[];
  stale_age_minutes: number;
  blocking_urgency: BlockingUrgency;
  message_attention_state: MessageAttentionState;
  suggested_action: string;
  plan_slug?: string;
  subtask_index?: number;
  wave_index?: number;
  blocked_downstream_count?: number;
  /** Set when the stranded session holds the plan sub-task claimed: the rescue makes it available again. */
  releases_subtask?: true;
  /** Set by rescue_stranded_run. */
  relay_observation_id?: number;
  rescue_observation_id?: number;
}

export interface RescueOutcome {
  dry_run: boolean;
  stranded: StrandedSession[];
  rescued: RescueEntry[];
  /** Entries past this call's batch, left for the next run. */
  remaining: number;
  budget: BudgetInfo;
}

export interface RescueBackend {
  scan(args: RescueStrandedScanInput): RescueOutcome;
  run(args: RescueStrandedRunInput): RescueOutcome;
}

export type ReadyReason = 'continue_current_task' | 'urgent_override' | 'ready_high_score';

/**
 * The exact task_plan_claim_subtask arguments for a ready sub-task. The top pick's are
 * the seed's shape (repo_root, file_scope); a ready entry's leave file_scope to the
 * entry (the claim takes the sub-task's own scope either way) and name repo_root only
 * when the slug exists in several repositories.
 */
export interface ReadyClaimArgs {
  repo_root?: string;
  plan_slug: string;
  subtask_index: number;
  session_id: string;
  agent: string;
  file_scope?: string[];
}

/** What a claimable pick carries so an agent claims instead of stopping at discovery. */
export interface ReadyClaimRouting {
  next_tool: 'task_plan_claim_subtask';
  claim_args: ReadyClaimArgs;
  codex_mcp_call: string;
  next_action_reason: string;
}

export interface ReadyEntry extends Partial<ReadyClaimRouting> {
  priority: number;
  plan_slug: string;
  subtask_index: number;
  /** Only on the sub-task already yours (continue_current_task): its thread, to post on. */
  task_id?: number;
  wave_index: number;
  wave_name: string;
  blocked_by_count: number;
  title: string;
  capability_hint: string | null;
  /** The scope, at most READY_FILE_PREVIEW paths (file_scope_total says how many there are when cut). */
  file_scope: string[];
  file_scope_total?: number;
  fit_score: number;
  reason: ReadyReason;
  reasoning: string;
  /** Only on a pick routed to another agent: who, and why (an entry without them is yours). */
  assigned_agent?: string;
  routing_reason?: string;
  /** Others' fresh or handoff_pending claims on files of the scope (at most 5). */
  conflicts?: Array<{ file_path: string; session_id: string; agent: string }>;
}

export type AutoClaimOutcome =
  | { ok: true; plan_slug: string; subtask_index: number; task_id: number; branch: string; file_scope: string[] }
  | { ok: false; plan_slug: string; subtask_index: number; code: string; error: string };

export interface ReadyForAgentResult extends Partial<ReadyClaimRouting> {
  ready: ReadyEntry[];
  total_available: number;
  next_action: string;
  plan_slug?: string;
  subtask_index?: number;
  reason?: ReadyReason;
  assigned_agent?: string;
  routing_reason?: string;
  auto_claimed?: AutoClaimOutcome;
  empty_state?: string;
}

/** task_ready_for_agent's answer: the ready work plus its budget. */
export type ReadyForAgentAnswer = ReadyForAgentResult & { budget: BudgetInfo };

export type AutopilotDecision =
  | 'accept_handoff'
  | 'accept_quota_relay'
  | 'reply_blocking_message'
  | 'claim_ready'
  | 'continue_current'
  | 'no_op';

export interface AutopilotSignals {
  pending_handoff_count: number;
  quota_pending_claim_count: number;
  unread_message_count: number;
  blocking_message_count: number;
  ready_subtask_count: number;
  stalled_lane_count: number;
  dead_heartbeat_lane_count: number;
  actionable_stalled_lane_count: number;
}

export interface AutopilotTickResult {
  generated_at: number;
  decision: AutopilotDecision;
  reason: string;
  next_tool: string | null;
  next_args: Record<string, unknown> | null;
  next_action: string;
  suggested_wake_seconds: number;
  signals: AutopilotSignals;
  budget: BudgetInfo;
}

export interface ReadyBackend {
  readyForAgent(args: TaskReadyForAgentInput): ReadyForAgentAnswer;
  autopilotTick(args: TaskAutopilotTickInput): AutopilotTickResult;
}

/** Sub-task indices by capability_hint. */
export type McpCapabilityMap = Record<string, number[]>;

export interface QueenPublished {
  plan_slug: string;
  spec_task_id: number;
  mcp_capability_map: McpCapabilityMap;
  subtasks: PlanPublishResult['subtasks'];
  plan_validation: PlanValidateResult;
}

export interface QueenDryRun {
  dry_run: true;
  plan_slug: string;
  /** The exact task_plan_publish input. */
  plan: Record<string, unknown>;
  mcp_capability_map: McpCapabilityMap;
  plan_validation: PlanValidateResult;
}

export interface QueenBackend {
  planGoal(args: QueenPlanGoalInput): QueenPublished | QueenDryRun;
}
