/**
 * @swarm/coordination: colony's domain rules. This file is the whole public API.
 * Services implement the backend interface of @swarm/tools on top of @swarm/storage;
 * side effects (clock, token counter, settings) are passed in.
 */

// attention_inbox: what needs a session now
export {
  type AttentionReadOptions,
  AttentionService,
  type AttentionServiceDeps,
  LIVE_CLAIM_SCAN,
  NEXT_ACTIONS as ATTENTION_NEXT_ACTIONS,
  nextAction as attentionNextAction,
} from './attention/attention-service';
export { SWEEP_SUGGESTION } from './attention/claim-signals';
export { decayWeight, fileHeat, type HeatSignal, heatWindowMs } from './attention/file-heat';
export { STALLED_LANE_NEXT_ACTION, stalledLanes } from './attention/stalled-lanes';
// Handoffs, relays and quota claims
export { BatonService, type PendingBaton } from './batons/baton-service';
export { FETCH_FILES_WARNING, type RelayArgs, type WorktreeRecipe } from './batons/open-baton';
export { agentFamily, targetsAgent } from './batons/targeting';
// The budget object of compact reads
export { type Budget, type BudgetFacts, withBudget } from './budget';
// File claims and drift
export { CLAIM_FRESH_MS, CLAIM_WEAK_AFTER_MS, claimAgeClass, isOwnership } from './claims/age';
export { CLAIM_KIND, ClaimService } from './claims/claim-service';
// Side effects passed in
export { type Clock, fileClock, type ManualClock, manualClock, systemClock } from './clock';
export {
  appendObservation,
  type CoordinationSettings,
  DEFAULT_COORDINATION_SETTINGS,
  type DomainContext,
} from './context';
export { EDIT_KIND, type EditRecord, FILE_EDIT_TOOLS, isFileEditTool, recordEdit } from './edits';
export { MAX_EXAMPLES, type SkippedExample } from './foraging/example-reader';
// Foraging: example projects under <repo_root>/examples/
export {
  canonicalRoot,
  ExamplesService,
  FORAGER_SESSION_ID,
  type ForagingScanResult,
  type ScannedExample,
  type ScanOptions,
  type ScanStatus,
} from './foraging/examples-service';
// IDE hooks
export {
  type Attention,
  type AttentionMessage,
  type AttentionPort,
  type AttentionQuery,
  type ClaimPort,
  type ClaimRequest,
  isEmptyAttention,
  NO_ATTENTION,
  type OthersClaim,
  type PendingHandoff,
  type ToolCall,
} from './hooks/attention';
export { editTargets, patchFiles } from './hooks/edit-targets';
export {
  HOOK_EVENTS,
  HOOK_IDES,
  type HookBasePayload,
  type HookEvent,
  type HookIde,
  HookInputError,
  type HookPayload,
  type HookToolPayload,
  IDE_EVENT_NAMES,
  isHookEvent,
  isHookIde,
  parseHookPayload,
} from './hooks/hook-input';
export {
  type ForagePort,
  type HookResult,
  HookService,
  type HookServiceOptions,
  hookSessionId,
  type RepoLocation,
  type RepoLocator,
} from './hooks/hook-service';
export { formatHookOutput } from './hooks/ide-output';
export { renderOverlap, renderPreface, renderReminder } from './hooks/preface';
export { type AttentionServices, serviceAttention, serviceClaims } from './hooks/service-ports';
export { inferIdeFromSessionId } from './ide';
// Lanes: activity read from heartbeats at read time
export {
  activitySummary,
  emptyActivityCounts,
  formatAge,
  isLiveActivity,
  type LaneSignals,
  laneActivity,
} from './lanes/activity';
export { CONTEXT_TOKENS, CONTEXT_WARNINGS } from './lanes/hivemind-context';
export {
  countActivities,
  type Lane,
  type LaneClaims,
  LOCKED_FILE_PREVIEW,
  lockedFilePreview,
  preview,
} from './lanes/lane';
export {
  LANE_SCAN_LIMIT,
  type LaneQuery,
  LaneService,
  type LaneServiceDeps,
  type ScopeArgs,
} from './lanes/lane-service';
export { mcpCall, type NextStep, nextStep, STALLED_NEXT_ACTION } from './lanes/next-step';
export { StartupService, type StartupServiceDeps } from './lanes/startup-service';
// Task links
export { LinkService, TASK_LINK_KIND, TASK_UNLINK_KIND } from './links/link-service';
export { compressContent } from './memory/compress';
// Embeddings: the embedder seam, stored vectors and their backfill, the hybrid blend
export {
  DEFAULT_EMBEDDING_DIMS,
  dot,
  type Embedder,
  type HashingEmbedderOptions,
  hashingEmbedder,
  normalizeL2,
} from './memory/embedder';
export { hybridRanker } from './memory/hybrid-ranker';
// Memory
export {
  LIVE_MEMORY_POOL,
  LIVE_MEMORY_WINDOW,
  type LiveSearchOptions,
  MemoryService,
  type MemoryServiceOptions,
  type SearchCandidate,
  type SearchRanker,
} from './memory/memory-service';
export { makeSnippet } from './memory/snippet';
export {
  BACKFILL_BATCH,
  BACKFILL_WINDOW,
  type BackfillResult,
  type BackfillStep,
  type IndexStatus,
  VectorIndex,
  type VectorIndexOptions,
} from './memory/vector-index';
// Seed-001 context mesh and agent messages
export { AGENT_MESSAGE_KIND } from './mesh/agent-messages';
export { isAgentName, MAX_AGENT_NAME_CHARS } from './mesh/agent-names';
export { canRead, MAX_LISTED_KEYS, toSqliteGlob } from './mesh/context-mesh';
export { createMeshBackend } from './mesh/mesh-service';
// Messages
export {
  isBroadcast,
  MESSAGE_PREVIEW_CHARS,
  recipientRefusal,
  replyTarget,
} from './messages/message-rules';
export {
  MESSAGE_CLAIM_KIND,
  MESSAGE_KIND,
  MESSAGE_READ_KIND,
  MESSAGE_RETRACT_KIND,
  MessageService,
  type UrgentUnreadQuery,
} from './messages/message-service';
// Plans
export { type LocatedSubtask, locatePlan, locateSubtask, type SubtaskLocator } from './plans/locate';
export { type NormalizedSubtask, normalizeSubtasks, validatePlan } from './plans/plan-check';
export {
  ancestorsOf,
  checkPlanRules,
  computeWaves,
  dependencyErrors,
  finalizerErrors,
  isFinalizer,
  type PlanRuleReport,
  type PlanShape,
  RULE_PRECEDENCE,
  scopeOverlaps,
} from './plans/plan-rules';
export { PlanService, type PlanServiceOptions } from './plans/plan-service';
export { nextAvailable, planSummary, subtaskEntry, subtaskRef } from './plans/plan-view';
export { PLAN_CONFIG_KIND, PLAN_SUBTASK_KIND, publishPlan } from './plans/publish-plan';
export {
  type OpenedSpecChange,
  type PlanSpecLane,
  type SpecArchiveRequest,
  type SpecChangeRequest,
  specServiceLane,
  subtaskBranch,
  threadOnlySpecLane,
} from './plans/spec-lane';
export { claimPlanSubtask, completePlanSubtask, PLAN_SUBTASK_CLAIM_KIND } from './plans/subtask-lifecycle';
// Agent capability profiles
export { DEFAULT_CAPABILITIES, ProfileService, profileKey } from './profiles/profile-service';
// Proposals
export {
  PROPOSAL_KIND,
  PROPOSAL_PROMOTED_KIND,
  PROPOSAL_REINFORCE_KIND,
  ProposalService,
  type ProposeOptions,
  proposalBranch,
} from './proposals/proposal-service';
export { agentTypeOf, type Evidence, proposalStrength, type Strength } from './proposals/strength';
// Rescue of stranded work
export {
  capabilityMap,
  decomposeGoal,
  type QueenGoal,
  type QueenPlan,
  type QueenSubtask,
} from './queen/decompose-goal';
export { QUEEN_AGENT, QueenService } from './queen/queen-service';
export { blockedDownstream } from './ready/downstream';
export { fileKey, type RankedCandidate, type RankInput, type ReadyCandidate, rankReady } from './ready/rank-ready';
export { ReadyService, type ReadyServiceDeps } from './ready/ready-service';
export { normalizeRepoPath } from './repo-paths';
export { RESCUE_BASE_BRANCH, RESCUE_KIND, RescueService } from './rescue/rescue-service';
export { FileRoots, type FileRootsOptions, repositoryOf } from './roots';
// Token receipts and the savings model
export {
  type ReferenceRow,
  type SavingsHour,
  type SavingsOptions,
  type SavingsRates,
  type SavingsReference,
  SavingsService,
  type SavingsTimeline,
  savingsTimeline,
} from './savings/savings-service';
// Specs and spec changes
export { type ChangeDocument, parseChange, writeChange } from './specs/change-format';
export {
  type AddDeltaOptions,
  ARCHIVE_STRATEGIES,
  type ArchiveOptions,
  type ArchiveStrategy,
  type OpenChangeOptions,
  SPEC_ARCHIVE_KIND,
  SPEC_CHANGE_OPEN_KIND,
  SPEC_DELTA_KIND,
  specBranch,
} from './specs/spec-changes';
export { applyDeltas, checkDelta, DELTA_OPS, DeltaError, type DeltaOp, type SpecDelta } from './specs/spec-deltas';
export { failureSignature } from './specs/spec-failures';
export { nodeFileOps, type SpecFileOps } from './specs/spec-files';
export {
  findRow,
  findSection,
  normalizeRowId,
  parseSpec,
  rootHash,
  SECTION_KEYS,
  type SpecDocument,
  type SpecModel,
  type SpecRow,
  type SpecSection,
  toSpecModel,
  writeSpec,
} from './specs/spec-format';
export { mergeSpec, type SpecConflict } from './specs/spec-merge';
export {
  type AutoArchiveOptions,
  type AutoArchiveOutcome,
  PLAN_ARCHIVE_BLOCKED_KIND,
  PLAN_ARCHIVE_ERROR_KIND,
  PLAN_ARCHIVE_SKIPPED_KIND,
  PLAN_ARCHIVED_KIND,
  SPEC_FAILURE_KIND,
  SpecService,
  type SpecServiceOptions,
} from './specs/spec-service';
// Suggestions from similar past tasks
export { SIMILARITY_FLOOR, SuggestService } from './suggest/suggest-service';
// Seed-000 framework tools: workspace files, write proposals, shared context, work queue
export {
  DEFAULT_RATE_LIMITS,
  RateLimiter,
  type RateLimitRule,
  type RateLimitSettings,
} from './swarm/rate-limiter';
export { currentPhase, PHASE_KEY } from './swarm/shared-context';
export { createSwarmBackend, type SwarmOptions } from './swarm/swarm-service';
export { Workspace, type WorkspacePath } from './swarm/workspace';
export { type NotepadPointer, pointerLine } from './tasks/omx-notepad';
export { compactLine, directedAgent, looksLikeFutureWork } from './tasks/post-routing';
// Task threads
export {
  normalizeRepoRoot,
  parseWorkingFields,
  TASK_LIST_HINT,
  TASK_LIST_STRONG_WARNING,
  TASK_LIST_WARNING,
  TaskService,
} from './tasks/task-service';
export { type CountJob, type TokenWorker, tokenWorker } from './token-worker';
export {
  createTokenCounter,
  DEFAULT_TOKENIZER_MODULE,
  estimateTokens,
  estimatingTokenCounter,
  type TokenCounter,
  type TokenCounterOptions,
} from './tokens';
