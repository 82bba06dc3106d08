/**
 * @module backend
 * What a backend must provide for the tools to run: one method per tool, taking the
 * validated contract arguments and answering the contract's shapes (snake_case, as on
 * the wire). @swarm/coordination implements it on SQLite; another store could too.
 * Methods throw ColonyError for refusals; they run synchronously so a mutating call
 * and its idempotency record commit in one transaction.
 */

import type { MeshBackend } from './backend-mesh';
import type { SwarmBackend } from './backend-swarm';
import type { AttentionInboxInput, AttentionInboxResult } from './tools/attention';
import type { ClaimAgeClass, TaskClaimFileInput, TaskDriftCheckInput } from './tools/claims';
import type { ExamplesBackend } from './tools/examples';
import type {
  TaskAcceptHandoffInput,
  TaskAcceptRelayInput,
  TaskDeclineHandoffInput,
  TaskDeclineRelayInput,
  TaskHandOffInput,
  TaskRelayInput,
} from './tools/handoffs';
import type { HivemindContextInput, HivemindContextResult, HivemindInput, HivemindResult } from './tools/hivemind';
import type { TaskLinkInput, TaskLinksInput, TaskUnlinkInput } from './tools/links';
import type {
  GetObservationsInput,
  ListSessionsInput,
  RecallSessionInput,
  SearchInput,
  TimelineInput,
} from './tools/memory';
import type {
  TaskMessageClaimInput,
  TaskMessageInput,
  TaskMessageMarkReadInput,
  TaskMessageRetractInput,
  TaskMessagesInput,
} from './tools/messages';
import type {
  TaskPlanClaimSubtaskInput,
  TaskPlanCompleteSubtaskInput,
  TaskPlanListInput,
  TaskPlanPublishInput,
  TaskPlanStatusForSpecRowInput,
  TaskPlanValidateInput,
} from './tools/plans';
import type { AgentGetProfileInput, AgentUpsertProfileInput } from './tools/profiles';
import type { TaskForagingReportInput, TaskProposeInput, TaskReinforceInput } from './tools/proposals';
import type { QueenPlanGoalInput } from './tools/queen';
import type {
  TaskClaimQuotaAcceptInput,
  TaskClaimQuotaDeclineInput,
  TaskClaimQuotaReleaseExpiredInput,
} from './tools/quota';
import type { TaskAutopilotTickInput, TaskReadyForAgentInput } from './tools/ready';
import type { RescueStrandedRunInput, RescueStrandedScanInput } from './tools/rescue';
import type { SavingsReport, SavingsReportInput } from './tools/savings';
import type {
  OpenspecSyncStatusInput,
  SpecArchiveInput,
  SpecBuildContextInput,
  SpecBuildRecordFailureInput,
  SpecChangeAddDeltaInput,
  SpecChangeOpenInput,
  SpecReadInput,
} from './tools/specs';
import type { BridgeStatusInput, BridgeStatusResult, StartupPanelInput, StartupPanelResult } from './tools/startup';
import type { TaskSuggestApproachInput } from './tools/suggest';
import type {
  TaskListInput,
  TaskNoteWorkingInput,
  TaskPostInput,
  TaskThreadInput,
  TaskTimelineInput,
  TaskUpdatesSinceInput,
} from './tools/tasks';

export interface SearchHit {
  id: number;
  session_id: string;
  kind: string;
  snippet: string;
  score: number;
  ts: number;
  task_id: number | null;
}

export interface ObservationBody {
  id: number;
  session_id: string;
  kind: string;
  ts: number;
  task_id: number | null;
  content: string;
  metadata: Record<string, unknown> | null;
}

export interface TimelineEntry {
  id: number;
  kind: string;
  ts: number;
}

export interface SessionSummary {
  id: string;
  ide: string;
  cwd: string | null;
  started_at: number;
  ended_at: number | null;
}

export interface RecallResult {
  recall_observation_id: number;
  session: SessionSummary;
  observations: TimelineEntry[];
}

export interface MemoryBackend {
  search(args: SearchInput): SearchHit[];
  getObservations(args: GetObservationsInput): ObservationBody[];
  timeline(args: TimelineInput): TimelineEntry[];
  listSessions(args: ListSessionsInput): SessionSummary[];
  recallSession(args: RecallSessionInput): RecallResult;
}

export interface ParticipantRef {
  session_id: string;
  agent: string;
}

export interface TaskThreadResult {
  task_id: number;
  repo_root: string;
  branch: string;
  created: boolean;
  participants: ParticipantRef[];
}

export interface TaskSummary {
  id: number;
  repo_root: string;
  branch: string;
  title: string | null;
  status: string;
  updated_at: number;
  participants: ParticipantRef[];
}

export interface TaskListResult {
  tasks: TaskSummary[];
  hint: string;
  coordination_warning?: string;
  next_tool?: string;
  budget: BudgetInfo;
}

export interface TaskTimelineEntry {
  id: number;
  kind: string;
  session_id: string;
  ts: number;
  reply_to: number | null;
}

export interface TaskUpdate {
  id: number;
  kind: string;
  session_id: string;
  ts: number;
}

export interface TaskPostResult {
  id: number;
  hint: string;
  recommendation?: {
    tool: 'task_propose';
    reason: string;
    suggested_args: Record<string, unknown>;
  };
  route_to_task_message?: true;
  misrouted_directed_coordination?: true;
  replacement_tool?: 'task_message';
  suggested_args?: Record<string, unknown>;
}

export interface NoteWorkingResult {
  observation_id: number;
  id: number;
  task_id: number;
  omx_notepad_path?: string;
  /** Set when the note was saved but the OMX pointer could not be written. */
  warning?: string;
}

export interface TaskBackend {
  thread(args: TaskThreadInput): TaskThreadResult;
  list(args: TaskListInput): TaskListResult;
  timeline(args: TaskTimelineInput): TaskTimelineEntry[];
  updatesSince(args: TaskUpdatesSinceInput): TaskUpdate[];
  post(args: TaskPostInput): TaskPostResult;
  noteWorking(args: TaskNoteWorkingInput): NoteWorkingResult;
}

export type MessageTarget = 'claude' | 'codex' | 'any';
export type MessageUrgency = 'fyi' | 'needs_reply' | 'blocking';
export type MessageStatus = 'unread' | 'read' | 'replied' | 'expired' | 'retracted';

export interface MessageSent {
  message_observation_id: number;
  status: 'unread';
}

/** The arguments of a reply, ready to fill in `content` and send with task_message. */
export interface MessageReplyArgs {
  task_id: number;
  session_id: string;
  agent: string;
  to_agent: MessageTarget;
  to_session_id: string;
  reply_to: number;
  urgency: MessageUrgency;
  content: string;
}

/** One compact inbox entry: addressing, lifecycle and action hints, never the body. */
export interface MessageEntry {
  id: number;
  task_id: number;
  ts: number;
  from_session_id: string;
  from_agent: string;
  to_agent: string;
  to_session_id: string | null;
  urgency: string;
  status: string;
  reply_to: number | null;
  preview: string;
  expires_at: number | null;
  is_claimable_broadcast: boolean;
  claimed_by_session_id: string | null;
  claimed_by_agent: string | null;
  reply_tool: 'task_message';
  suggested_reply_args: MessageReplyArgs;
  mark_read_tool: 'task_message_mark_read';
}

export interface MessageStatusResult {
  status: MessageStatus;
}

export interface MessageClaimed {
  status: 'claimed';
  claimed_by_session_id: string;
  claimed_by_agent: string;
  claimed_at: number;
}

export interface MessageBackend {
  send(args: TaskMessageInput): MessageSent;
  list(args: TaskMessagesInput): MessageEntry[];
  markRead(args: TaskMessageMarkReadInput): MessageStatusResult;
  retract(args: TaskMessageRetractInput): MessageStatusResult;
  claim(args: TaskMessageClaimInput): MessageClaimed;
}

export interface TaskLinkResult {
  low_id: number;
  high_id: number;
  created_at: number;
  created_by: string;
  note: string | null;
}

export interface LinkedTaskEntry extends TaskLinkResult {
  other_task: { id: number; repo_root: string; branch: string; title: string | null; status: string };
}

export interface LinkBackend {
  link(args: TaskLinkInput): TaskLinkResult;
  links(args: TaskLinksInput): LinkedTaskEntry[];
  unlink(args: TaskUnlinkInput): { removed: boolean };
}

/** Another session's claim on the same repository file, as task_claim_file reports it. */
export interface ClaimOverlap {
  session_id: string;
  agent: string;
  task_id: number;
  claimed_at: number;
  age_class: ClaimAgeClass;
}

export interface ClaimFileResult {
  observation_id: number;
  /** Set when someone else holds a fresh or handoff_pending claim on the file. */
  warning?: string;
  overlaps?: ClaimOverlap[];
  /** Others' stale or weak claims on the file: history, not ownership. */
  weak_stale?: ClaimOverlap[];
}

export interface DriftCheckResult {
  generated_at: number;
  task_id: number;
  session_id: string;
  window_minutes: number;
  claimed_files: string[];
  edited_files: string[];
  edits_without_claim: string[];
  claims_without_edits: string[];
  drift_score: number;
  recommendation: string;
  next_tool: 'task_claim_file' | null;
  next_args: Array<{ session_id: string; task_id: number; file_path: string }> | null;
  budget: BudgetInfo;
}

export interface ClaimBackend {
  claimFile(args: TaskClaimFileInput): ClaimFileResult;
  driftCheck(args: TaskDriftCheckInput): DriftCheckResult;
}

export interface HandOffResult {
  handoff_observation_id: number;
  status: 'pending';
}

export interface RelayResult {
  relay_observation_id: number;
  status: 'pending';
  /** Set when fetch_files_at was omitted. */
  warning?: string;
}

export interface AcceptBatonResult {
  status: 'accepted';
  task_id: number;
  /** Files now claimed by the acceptor, repo-relative. */
  claimed_files: string[];
}

export interface DeclineBatonResult {
  status: 'cancelled';
}

export interface QuotaAcceptResult extends AcceptBatonResult {
  handoff_observation_id: number;
}

export interface QuotaDeclineResult {
  status: 'pending';
  handoff_observation_id: number;
  to_agent: 'any';
}

export interface QuotaReleaseResult {
  expired_observation_ids: number[];
  weak_expired_files: string[];
}

export interface BatonBackend {
  handOff(args: TaskHandOffInput): HandOffResult;
  acceptHandoff(args: TaskAcceptHandoffInput): AcceptBatonResult;
  declineHandoff(args: TaskDeclineHandoffInput): DeclineBatonResult;
  relay(args: TaskRelayInput): RelayResult;
  acceptRelay(args: TaskAcceptRelayInput): AcceptBatonResult;
  declineRelay(args: TaskDeclineRelayInput): DeclineBatonResult;
  quotaAccept(args: TaskClaimQuotaAcceptInput): QuotaAcceptResult;
  quotaDecline(args: TaskClaimQuotaDeclineInput): QuotaDeclineResult;
  quotaReleaseExpired(args: TaskClaimQuotaReleaseExpiredInput): QuotaReleaseResult;
}

export interface PlanPairOverlap {
  a: number;
  b: number;
  shared: string[];
}

export interface PlanModuleWarning {
  a: number;
  b: number;
  shared_modules: string[];
}

export interface PlanLiveClaimCollision {
  subtask_index: number;
  file_path: string;
  holder_session_id: string;
  holder_agent: string;
  holder_task_id: number;
  holder_branch: string;
  claimed_at: number;
}

export type PlanRuleCode =
  | 'PLAN_INVALID_WAVE_DEPENDENCY'
  | 'PLAN_WAVE_SCOPE_OVERLAP'
  | 'PLAN_FINALIZER_NOT_LAST'
  | 'PLAN_SCOPE_OVERLAP';

/** One broken ordering rule of a plan. */
export interface PlanWaveError {
  code: PlanRuleCode;
  message: string;
  subtask_index?: number;
  dependency_index?: number;
  wave?: number;
  shared?: string[];
  related_subtask_indices?: number[];
}

export interface PlanFinding {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  subtask_index?: number;
  file_path?: string;
}

export interface PlanValidationSummary {
  blocking: boolean;
  finding_count: number;
  counts: { error: number; warning: number; info: number };
  findings: PlanFinding[];
}

export interface PlanValidateResult {
  pairwise_overlaps: PlanPairOverlap[];
  live_claim_collisions: PlanLiveClaimCollision[];
  module_warnings: PlanModuleWarning[];
  ordered_wave_errors: PlanWaveError[];
  /** The wave of each sub-task, by index; null when the dependencies are invalid. */
  waves: number[] | null;
  summary: PlanValidationSummary;
  partition_clean: boolean;
}

export interface PublishedSubtask {
  subtask_index: number;
  branch: string;
  task_id: number;
  title: string;
}

export interface PlanPublishResult {
  plan_slug: string;
  spec_task_id: number;
  spec_change_path: string | null;
  subtasks: PublishedSubtask[];
}

export type SubtaskStatus = 'available' | 'claimed' | 'completed' | 'blocked';

export interface PlanSubtaskEntry {
  subtask_index: number;
  title: string;
  status: SubtaskStatus;
  wave_index: number;
  depends_on: number[];
  capability_hint: string | null;
  file_scope: string[];
  task_id: number;
  branch: string;
  claimed_by_session_id: string | null;
  claimed_by_agent: string | null;
}

/** A sub-task claimable now: available, every dependency completed. */
export interface NextAvailableSubtask {
  subtask_index: number;
  title: string;
  wave_index: number;
  capability_hint: string | null;
  file_scope: string[];
}

export interface PlanSummary {
  plan_slug: string;
  repo_root: string;
  spec_task_id: number;
  registry_status: 'registered' | 'subtask-only';
  status: 'active' | 'archived';
  title: string;
  created_at: number;
  subtask_counts: Record<SubtaskStatus, number>;
  subtasks: PlanSubtaskEntry[];
  next_available: NextAvailableSubtask[];
}

export interface SubtaskClaimResult {
  task_id: number;
  branch: string;
  file_scope: string[];
  /** Other sessions' fresh or handoff_pending claims on the claimed files. */
  warnings?: string[];
  /** Set when the caller already held this sub-task. */
  already_claimed?: true;
}

export interface AutoArchiveOutcome {
  status: 'skipped' | 'archived' | 'blocked' | 'error';
  reason?: string;
  archived_path?: string;
  merged_root_hash?: string;
  /** How many deltas of the change were applied. */
  applied?: number;
  conflicts?: SpecConflictEntry[];
}

export interface SubtaskCompleteResult {
  status: 'completed';
  /** Sub-task indices that became available with this completion. */
  unblocked: number[];
  auto_archive: AutoArchiveOutcome;
}

export interface SpecRowBinding {
  plan_slug: string;
  subtask_index: number;
  task_id: number;
  branch: string;
  spec_row_id: string;
}

export type SpecRowStatusResult =
  | (SpecRowBinding & {
      status: SubtaskStatus;
      claimed_by_session_id: string | null;
      claimed_by_agent: string | null;
      binding: SpecRowBinding;
    })
  | { spec_row_id: string; binding: null; status: null };

export interface PlanBackend {
  validate(args: TaskPlanValidateInput): PlanValidateResult;
  publish(args: TaskPlanPublishInput): PlanPublishResult;
  list(args: TaskPlanListInput): PlanSummary[];
  claimSubtask(args: TaskPlanClaimSubtaskInput): SubtaskClaimResult;
  completeSubtask(args: TaskPlanCompleteSubtaskInput): SubtaskCompleteResult;
  statusForSpecRow(args: TaskPlanStatusForSpecRowInput): SpecRowStatusResult;
}

/** Weights in [0, 1] by capability dimension. */
export type CapabilityWeights = Record<string, number>;

export interface AgentProfileResult {
  agent: string;
  capabilities: CapabilityWeights;
  created_at: number;
  updated_at: number;
}

export interface AgentProfileView {
  agent: string;
  capabilities: CapabilityWeights;
  defaults: CapabilityWeights;
}

export interface ProfileBackend {
  upsert(args: AgentUpsertProfileInput): AgentProfileResult;
  get(args: AgentGetProfileInput): AgentProfileView;
}

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
}

export interface SpecChangeOpenResult {
  task_id: number;
  /** Absolute path of the change's CHANGE.md. */
  path: string;
  base_root_hash: string;
}

/** One conflicting hunk of an archive's three-way merge. */
export interface SpecConflictEntry {
  /** 1-based line of the base where the hunk starts. */
  line: number;
  /** Row ids in the hunk, e.g. ['V.3']. */
  ids: string[];
  base: string[];
  change: string[];
  root: string[];
}

/** archived: written; conflict: three_way found conflicts, nothing written; refused: refuse_on_conflict did. */
export type SpecArchiveStatus = 'archived' | 'conflict' | 'refused';

export interface SpecArchiveResult {
  status: SpecArchiveStatus;
  archived_path: string | null;
  merged_root_hash: string | null;
  conflicts: SpecConflictEntry[];
  /** Deltas applied (0 unless archived). */
  applied: number;
}

export interface ProposeResult {
  proposal_id: number;
  strength: number;
  promotion_threshold: number;
}

export interface ReinforceResult {
  proposal_id: number;
  strength: number;
  promoted: boolean;
  task_id: number | null;
}

export interface PendingProposal {
  id: number;
  strength: number;
  summary: string;
  /** Unique reinforcing sessions (the proposer included). */
  reinforcement_count: number;
  touches_files: string[];
  created_at: number;
  last_reinforced_at: number;
}

export interface PromotedProposal {
  id: number;
  task_id: number;
  /** The promoted task thread's branch. */
  branch: string;
  summary: string;
  promoted_at: number;
}

export interface ForagingReport {
  pending: PendingProposal[];
  promoted: PromotedProposal[];
  budget: BudgetInfo;
}

export interface ProposalBackend {
  propose(args: TaskProposeInput): ProposeResult;
  reinforce(args: TaskReinforceInput): ReinforceResult;
  foragingReport(args: TaskForagingReportInput): ForagingReport;
}

export interface SpecSectionSummary {
  /** The § letter (G, C, I, V, T, B) or '' for another heading. */
  id: string;
  heading: string;
  body: string;
  row_count?: number;
}

export interface SpecInvariantRef {
  id: string;
  rule: string;
}

export interface SpecReadResult {
  rootHash: string;
  title: string;
  sections: SpecSectionSummary[];
  alwaysInvariants: SpecInvariantRef[];
}

export interface SpecContextResult {
  task_id: string;
  cited_ids: string[];
  always_invariants: SpecInvariantRef[];
  rendered: string;
}

export interface RecordFailureResult {
  action: 'logged' | 'promoted' | 'duplicate';
  signature_hash: string;
  match_count: number;
  proposal_id: number | null;
}

export type SyncDriftKind =
  | 'change_without_task'
  | 'task_without_change'
  | 'stale_change'
  | 'base_moved'
  | 'broken_change'
  | 'archive_unrecorded'
  | 'stale_checkbox';

export interface SyncDriftRow {
  kind: SyncDriftKind;
  slug: string;
  detail: string;
  repair: { tool: string; args: Record<string, unknown> } | null;
}

export interface SyncStatusResult {
  repo_root: string;
  root_hash: string | null;
  open_changes: number;
  archived_changes: number;
  drift: SyncDriftRow[];
  total: number;
  truncated: boolean;
  budget: BudgetInfo;
}

export interface SpecBackend {
  read(args: SpecReadInput): SpecReadResult;
  syncStatus(args: OpenspecSyncStatusInput): SyncStatusResult;
  changeOpen(args: SpecChangeOpenInput): SpecChangeOpenResult;
  changeAddDelta(args: SpecChangeAddDeltaInput): { delta_count: number };
  buildContext(args: SpecBuildContextInput): SpecContextResult;
  buildRecordFailure(args: SpecBuildRecordFailureInput): RecordFailureResult;
  /** Throws SPEC_ARCHIVE_CONFLICT (details: status 'refused', conflicts) when refuse_on_conflict meets conflicts. */
  archiveChange(args: SpecArchiveInput): SpecArchiveResult;
}

export interface SimilarTask {
  task_id: number;
  similarity: number;
  branch: string;
  repo_root: string;
  /** `completed` (a completed plan sub-task or an archived plan), else the thread's status. */
  status: string;
  observation_count: number;
}

export interface LikelyFile {
  file_path: string;
  appears_in_count: number;
  confidence: number;
}

export interface PatternToWatch {
  description: string;
  seen_in_task_id: number;
  kind: string;
  observation_id: number;
}

export interface ResolutionHints {
  median_elapsed_minutes: number | null;
  median_handoff_count: number | null;
  median_subtask_count: number | null;
  completed_sample_size: number;
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

export interface SuggestApproachResult {
  similar_tasks: SimilarTask[];
  first_files_likely_claimed: LikelyFile[];
  patterns_to_watch: PatternToWatch[];
  resolution_hints: ResolutionHints;
  insufficient_data_reason: string | null;
  budget: BudgetInfo;
}

export interface SuggestBackend {
  suggestApproach(args: TaskSuggestApproachInput): SuggestApproachResult;
}

export interface AttentionBackend {
  inbox(args: AttentionInboxInput): AttentionInboxResult;
}
