/**
 * @swarm/tools: the colony tool contract. This file is the whole public API, and only
 * what other packages use: tool definitions (zod input, handler binding, docs), the
 * closed set of error codes, the registry that validates and runs calls, and adapters
 * that derive every other surface from the same definitions. Each tool family's names
 * come from its one file, tools/<family>.ts. The MCP adapter lives at `@swarm/tools/mcp`.
 */

// Other surfaces: OpenAI and Anthropic function schemas
export {
  type AnthropicTool,
  getSchemas,
  type OpenAITool,
  toAnthropicTools,
  toOpenAITools,
} from './adapters/function-schemas';
// The backend contract, composed from the families below
export type { ColonyBackend, FrameworkBackend, MeshBackend } from './backend';
// Every tool, in tools/list order
export { COLONY_TOOLS, MESH_TOOLS } from './catalog';
// Defining tools and toolsets
export {
  type DefinedTool,
  defineTool,
  inToolset,
  TOOLSETS,
  type Tool,
  type ToolAnnotations,
  type ToolDocs,
  type ToolHints,
  type ToolSpec,
  type ToolSurface,
  type Toolset,
} from './define-tool';
// docs/mcp.md
export { type DocsOptions, renderToolDocs } from './docs';
// Errors
export {
  ColonyError,
  type ColonyErrorOptions,
  type ColonyErrorPayload,
  ERROR_CODES,
  type ErrorCode,
  type ErrorFormat,
  errorCodeOf,
  isColonyError,
  RATE_LIMITED_STATUS,
  type SynthaErrorPayload,
  type ToolErrorPayload,
  toErrorPayload,
} from './errors';
// JSON Schema of a tool input
export { inputJsonSchema, type JsonSchema } from './json-schema';
// The registry
export {
  type CallReceipt,
  clip,
  hashArgs,
  parseArgs,
  parseToolArgs,
  RECEIPT_BOUNDS,
  type RegistryCallbacks,
  type ToolCallOutcome,
  ToolRegistry,
} from './registry';
// Shared vocabulary: limits, the budget object
export { type BudgetInfo, MAX_CONTENT_CHARS, TARGET_AGENTS, type WholeBudgetInfo } from './schemas';
// The catalog as types: tool names, and arguments, answers and refusals by name
export type { ToolArgs, ToolError, ToolName, ToolOutcome, ToolResult } from './tool-types';
// Tool family: attention
export {
  ATTENTION_DEFAULTS,
  ATTENTION_LIST_CAPS,
  ATTENTION_TOKEN_BUDGET,
  type AttentionBackend,
  type AttentionBlocker,
  type AttentionClaimEntry,
  type AttentionHandoff,
  type AttentionInbox,
  AttentionInboxInput,
  type AttentionInboxResult,
  type AttentionLaneAction,
  type AttentionMessage,
  type AttentionStalledLane,
  type AttentionSummary,
  type AttentionWake,
  type ExpandedInbox,
  expandInbox,
  FILE_HEAT_EDIT_SCAN,
  FILE_HEAT_WINDOW_HALF_LIVES,
  type FileHeatEntry,
  type StaleClaimSignals,
} from './tools/attention';
// Tool family: claims
export {
  CLAIM_FRESH_MINUTES,
  CLAIM_WEAK_AFTER_MINUTES,
  type ClaimAgeClass,
  type ClaimBackend,
  type ClaimFileResult,
  type ClaimOverlap,
  type DriftCheckResult,
  TaskClaimFileInput,
  TaskDriftCheckInput,
} from './tools/claims';
// Tool family: examples
export {
  type ExampleEntry,
  type ExamplesBackend,
  ExamplesIntegratePlanInput,
  ExamplesListInput,
  ExamplesQueryInput,
  exampleName,
  type FileToCopy,
  type IntegratePlan,
  type ManifestKind,
} from './tools/examples';
// Tool family: swarm-context
export {
  CtxGetInput,
  type CtxGetResult,
  CtxKeysInput,
  type CtxKeysResult,
  CtxPutInput,
  type CtxPutResult,
} from './tools/framework-context';
// Tool family: swarm-files
export {
  ArbiterDecideInput,
  type ArbiterDecideResult,
  type DecisionResult,
  FsListInput,
  type FsListResult,
  FsProposalsInput,
  type FsProposalsResult,
  FsReadInput,
  type FsReadResult,
  FsWriteInput,
  type FsWriteResult,
  SearchTextInput,
  type SearchTextResult,
  type TextMatch,
} from './tools/framework-files';
// Tool family: swarm-queue
export {
  CoordClaimInput,
  CoordCompleteInput,
  CoordEnqueueInput,
  CoordExtendInput,
  CoordNextInput,
  type QueueItemView,
  type QueueStatusResult,
} from './tools/framework-queue';
// Tool family: handoffs
export {
  type AcceptBatonResult,
  type BatonBackend,
  type DeclineBatonResult,
  HANDOFF_TTL_MINUTES,
  type HandOffResult,
  RELAY_REASONS,
  RELAY_TTL_MINUTES,
  type RelayResult,
  TaskAcceptHandoffInput,
  TaskAcceptRelayInput,
  TaskDeclineHandoffInput,
  TaskDeclineRelayInput,
  TaskHandOffInput,
  TaskRelayInput,
} from './tools/handoffs';
// Tool family: hivemind
export {
  CONTEXT_TOKEN_TARGET,
  type ContextLane,
  HIVEMIND_ATTENTION_HINT,
  HIVEMIND_ATTENTION_HYDRATION,
  HIVEMIND_NEXT_ACTION,
  HIVEMIND_READY_WORK_HINT,
  HIVEMIND_REPO_ROOTS_ENV,
  HivemindContextInput,
  type HivemindContextResult,
  HivemindInput,
  type HivemindLane,
  type HivemindResult,
  LANE_SOURCE,
  type LaneBackend,
  type NegativeWarning,
} from './tools/hivemind';
// Tool family: lane-activity
export {
  LANE_ACTIVITIES,
  LANE_DEAD_MINUTES,
  LANE_LIVE_MINUTES,
  LANE_STALLED_MINUTES,
  LANE_WORKING_MINUTES,
  type LaneActivity,
} from './tools/lane-activity';
// Tool family: links
export {
  type LinkBackend,
  type LinkedTaskEntry,
  TaskLinkInput,
  type TaskLinkResult,
  TaskLinksInput,
  TaskUnlinkInput,
} from './tools/links';
// Tool family: memory
export {
  type CompactSearchHit,
  GetObservationsInput,
  ListSessionsInput,
  type MemoryBackend,
  type ObservationBody,
  type RecallResult,
  RecallSessionInput,
  type SearchHit,
  SearchInput,
  type SessionSummary,
  type TimelineEntry,
  TimelineInput,
} from './tools/memory';
// Tool family: mesh-context
export {
  BatchContextOperationInput,
  type BatchContextResult,
  BatchOperation,
  type BatchOperationResult,
  GetContextInput,
  type GetContextResult,
  ListContextKeysInput,
  type ListContextKeysResult,
  PushContextInput,
  type PushContextResult,
} from './tools/mesh-context';
// Tool family: mesh-messages
export {
  BroadcastMessageToAgentsInput,
  type BroadcastResult,
  GetMessagesFromAgentsInput,
  type GetMessagesResult,
  type MeshMessageType,
  type MeshMessageView,
  type MeshPriority,
  type SendMessageResult,
  SendMessageToAgentInput,
} from './tools/mesh-messages';
// Tool family: messages
export {
  MESSAGE_TARGETS,
  MESSAGE_URGENCIES,
  type MessageBackend,
  type MessageClaimed,
  type MessageEntry,
  type MessageListEntry,
  type MessageReplyArgs,
  type MessageSent,
  type MessageStatus,
  type MessageStatusResult,
  type MessageTarget,
  TaskMessageClaimInput,
  TaskMessageInput,
  TaskMessageMarkReadInput,
  TaskMessageRetractInput,
  TaskMessagesInput,
} from './tools/messages';
// Tool family: plan-subtasks
export {
  type AutoArchiveOutcome,
  type NextAvailableSubtask,
  type PlanSubtaskEntry,
  type PlanSummary,
  type SpecRowStatusResult,
  type SubtaskClaimResult,
  type SubtaskCompleteResult,
  type SubtaskStatus,
  TaskPlanClaimSubtaskInput,
  TaskPlanCompleteSubtaskInput,
  TaskPlanListInput,
  TaskPlanStatusForSpecRowInput,
} from './tools/plan-subtasks';
// Tool family: plans
export {
  type PlanBackend,
  type PlanFinding,
  type PlanLiveClaimCollision,
  type PlanModuleWarning,
  type PlanPairOverlap,
  type PlanPublishResult,
  type PlanRuleCode,
  PlanSubtaskInput,
  type PlanValidateResult,
  type PlanValidationSummary,
  type PlanWaveError,
  TaskPlanPublishInput,
  TaskPlanValidateInput,
} from './tools/plans';
// Tool family: profiles
export {
  AgentGetProfileInput,
  type AgentProfileResult,
  type AgentProfileView,
  AgentUpsertProfileInput,
  CAPABILITY_DIMENSIONS,
  type CapabilityWeights,
  DEFAULT_CAPABILITY_WEIGHT,
  MAX_CAPABILITY_DIMENSIONS,
  type ProfileBackend,
} from './tools/profiles';
// Tool family: proposals
export {
  type ForagingReport,
  PROMOTION_THRESHOLD,
  PROPOSAL_HALF_LIFE_HOURS,
  PROPOSAL_NOISE_FLOOR,
  PROPOSAL_WEIGHTS,
  type ProposalBackend,
  type ProposeResult,
  type ReinforceResult,
  SAME_AGENT_TYPE_FACTOR,
  TaskForagingReportInput,
  TaskProposeInput,
  TaskReinforceInput,
} from './tools/proposals';
// Tool family: queen
export {
  QUEEN_ORDERINGS,
  type QueenBackend,
  type QueenDryRun,
  QueenPlanGoalInput,
  type QueenPublished,
} from './tools/queen';
// Tool family: quota
export {
  type QuotaAcceptResult,
  type QuotaDeclineResult,
  type QuotaReleaseResult,
  TaskClaimQuotaAcceptInput,
  TaskClaimQuotaDeclineInput,
  TaskClaimQuotaReleaseExpiredInput,
} from './tools/quota';
// Tool family: ready
export {
  AUTOPILOT_IDLE_WAKE_SECONDS,
  type AutoClaimOutcome,
  type AutopilotDecision,
  type AutopilotSignals,
  type AutopilotTickResult,
  READY_BLOCKED_ACTION,
  READY_EMPTY_STATE,
  READY_FILE_PREVIEW,
  READY_NO_PLAN_ACTION,
  type ReadyBackend,
  type ReadyClaimRouting,
  type ReadyEntry,
  type ReadyForAgentAnswer,
  type ReadyForAgentResult,
  TaskAutopilotTickInput,
  TaskReadyForAgentInput,
} from './tools/ready';
// Tool family: rescue
export {
  type BlockingUrgency,
  type MessageAttentionState,
  RESCUE_BATCH,
  type RescueBackend,
  type RescueEntry,
  type RescueOutcome,
  RescueStrandedRunInput,
  RescueStrandedScanInput,
  STRANDED_AFTER_MINUTES,
  type StrandedSession,
} from './tools/rescue';
// Tool family: savings
export {
  DEFAULT_SAVINGS_HOURS,
  MAX_SAVINGS_HOURS,
  type SavingsBackend,
  type SavingsErrorReason,
  type SavingsOperationRow,
  type SavingsReferenceRow,
  type SavingsReport,
  SavingsReportInput,
} from './tools/savings';
// Tool family: specs
export {
  OpenspecSyncStatusInput,
  type RecordFailureResult,
  SpecArchiveInput,
  type SpecArchiveResult,
  type SpecBackend,
  SpecBuildContextInput,
  SpecBuildRecordFailureInput,
  SpecChangeAddDeltaInput,
  SpecChangeOpenInput,
  type SpecChangeOpenResult,
  type SpecConflictEntry,
  type SpecContextResult,
  type SpecInvariantRef,
  SpecReadInput,
  type SpecReadResult,
  type SyncDriftKind,
  type SyncDriftRow,
  type SyncStatusResult,
} from './tools/specs';
// Tool family: startup
export {
  BRIDGE_PREVIEW_CAPS,
  BRIDGE_STATUS_SCHEMA,
  BridgeStatusInput,
  type BridgeStatusResult,
  type StartupBackend,
  type StartupEvidence,
  StartupPanelInput,
  type StartupPanelResult,
} from './tools/startup';
// Tool family: suggest
export {
  type LikelyFile,
  type PatternToWatch,
  type ResolutionHints,
  type SimilarTask,
  type SuggestApproachResult,
  type SuggestBackend,
  TaskSuggestApproachInput,
} from './tools/suggest';
// Tool family: swarm runs (seed 004, toolset runtime)
export type {
  SwarmCollectInput,
  SwarmRunAnswer,
  SwarmRunBackend,
  SwarmRunInput,
  SwarmRunResult,
  SwarmStatusInput,
  SwarmStatusResult,
  WorkspaceCleanResult,
} from './tools/swarm-runs';
// Tool family: tasks
export {
  NEGATIVE_WARNING_KINDS,
  type NoteWorkingResult,
  type ParticipantRef,
  TASK_POST_KINDS,
  type TaskBackend,
  TaskListInput,
  type TaskListResult,
  TaskNoteWorkingInput,
  TaskPostInput,
  type TaskPostKind,
  type TaskPostResult,
  TaskThreadInput,
  type TaskThreadResult,
  type TaskTimelineEntry,
  TaskTimelineInput,
  type TaskUpdate,
  TaskUpdatesSinceInput,
} from './tools/tasks';
// Tool family: workspaces (seed 004, toolset runtime)
export type {
  ExecParallelInput,
  ExecParallelResult,
  WorkspaceBackend,
  WorkspaceDestroyInput,
  WorkspaceDestroyResult,
  WorkspaceForkInput,
  WorkspaceForkResult,
  WorkspaceListInput,
  WorkspaceListResult,
  WorkspaceMergeInput,
  WorkspaceMergeResult,
} from './tools/workspaces';
