/**
 * @swarm/storage: colony's store. This file is the whole public API.
 * Schema, migrations and per-aggregate query functions on SQLite (better-sqlite3 +
 * drizzle-orm, WAL). All SQL of the system lives in this package.
 */

// Opening a store
export {
  BUSY_TIMEOUT_MS,
  isStoreBusy,
  makeDirs,
  type OpenStoreOptions,
  openStore,
  Store,
  type StoreBody,
  type WriteOptions,
  type WriteRider,
} from './_store';
export {
  type RefuseStore,
  STORE_BUSY_RETRY_AFTER_MS,
  StoreError,
  type StoreRefusal,
  type StoreRefusalCode,
} from './_store-state';
// Attention: live claims, claimed sub-tasks, recent edits and open blockers, bounded reads
export {
  type AttentionClaim,
  type AttentionEdit,
  type AttentionScope,
  type AttentionSubtask,
  claimedSubtasksInScope,
  existingTaskIds,
  liveClaimsInScope,
  type OpenBlockerPost,
  openBlockerPosts,
  recentEditsInScope,
  sessionThreadsInScope,
} from './attention';
// Batons: handoffs and relays
export {
  type Baton,
  type BatonKind,
  type BatonStatus,
  countBatons,
  getBaton,
  insertBaton,
  type NewBaton,
  type OpenBaton,
  openBatonsForSession,
  overduePendingBatons,
  pendingBatonOfFile,
  type Resolution,
  resolveBaton,
  retargetBaton,
} from './batons';
// WAL checkpoints
export {
  autoCheckpointPages,
  CHECKPOINT_MODES,
  type CheckpointMode,
  type CheckpointResult,
  checkpoint,
  DEFAULT_AUTO_CHECKPOINT_PAGES,
  setAutoCheckpoint,
} from './checkpoint';
// File claims
export {
  type ClaimState,
  claimsOnRepoFile,
  countClaims,
  expiredPendingClaims,
  type FileClaim,
  findLiveClaim,
  insertClaim,
  markClaimsPending,
  type NewClaim,
  othersLiveClaims,
  pendingClaimsOfBaton,
  type RepoClaim,
  refreshClaim,
  releaseLiveClaims,
  sessionClaims,
  settlePendingClaims,
  touchActiveClaim,
  weakenClaims,
} from './claims';
// Shared context (seed 000)
export {
  type ContextEntry,
  type ContextWrite,
  contextVersion,
  getContext,
  listContextKeys,
  setContext,
  setContextIfVersion,
} from './context-entries';
// Example projects (food sources) and their foraged patterns
export {
  deleteExamples,
  type ExampleRow,
  type ExampleWrite,
  FORAGED_PATTERN_KIND,
  getExample,
  type IndexedPattern,
  listExamples,
  markExamplesScanned,
  reindexExamplePatterns,
  searchExamplePatterns,
  upsertExample,
} from './examples';
// Idempotency keys
export {
  deleteIdempotentResult,
  findIdempotentResult,
  type IdempotentResult,
  replaceIdempotentResult,
  saveIdempotentResult,
} from './idempotency';
// Workflow runs and their stages; iteration runs and their iterations
export {
  finishIteration,
  getIterationRun,
  type IterationRow,
  type IterationRunRow,
  insertIterationRun,
  iterationsOf,
  reopenIterationRun,
  startIteration,
  stopIterationRun,
} from './iteration-runs';
// Lanes: live sessions on task threads, and what waits in their scope
export {
  countReadySubtasks,
  type LaneClaim,
  type LaneFilter,
  type LaneRow,
  lanesInScope,
  lanesOfSession,
  latestWorkingNote,
  liveClaimsOfSessions,
  liveClaimsOfTask,
  type ScopeAttention,
  type ScopeWarning,
  scopeAttention,
  scopeWarnings,
} from './lanes';
// Task links
export {
  countTaskLinks,
  deleteTaskLink,
  getTaskLink,
  insertTaskLink,
  linkKey,
  listTaskLinks,
  type NewTaskLink,
  type TaskLink,
} from './links';
// Context mesh and agent messages (seed 001)
export {
  countMeshEntries,
  deleteMeshEntry,
  getMeshEntry,
  listMeshKeys,
  type MeshEntry,
  type MeshEntryWrite,
  type MeshKeyFilter,
  purgeExpiredMeshEntries,
  putMeshEntry,
} from './mesh-context';
export {
  countMeshUnread,
  type InboxMeshMessage,
  listMeshInbox,
  type MeshInboxFilter,
  markMeshMessageRead,
} from './mesh-inbox';
export {
  countMeshMessages,
  insertMeshMessage,
  meshThreadMembership,
  type NewMeshMessage,
  type ThreadMembership,
} from './mesh-messages';
// Messages
export {
  claimMessage,
  countMessages,
  effectiveStatus,
  expireMessage,
  getMessage,
  type InboxFilter,
  type InboxMessage,
  insertMessage,
  listInboxMessages,
  type Message,
  markMessageRead,
  markMessageReplied,
  type NewMessage,
  retractMessage,
} from './messages';
// Receipts
export { countCalls, insertReceipts, listReceipts, type Receipt } from './metrics';
export type { EmbeddedMigration } from './migrate';
// Observations and search
export {
  countObservations,
  editedFilesSince,
  ftsMatchExpression,
  getObservation,
  getObservations,
  insertObservation,
  insertObservations,
  type KeywordFilter,
  type KeywordHit,
  keywordSearch,
  liveMatches,
  MATCH_CLOSE,
  MATCH_OPEN,
  type MarkedMatch,
  type NewObservation,
  type Observation,
  type ObservationRef,
  RANK_POOL,
  refineTokenCounts,
  repliesTo,
  sessionTimeline,
  type TokenCountRefinement,
  taskTimeline,
  taskUpdatesSince,
} from './observations';
/** PostgreSQL URLs as shown (password masked); no PostgreSQL code is loaded by this. */
export { maskUrl, scrubSecret } from './pg/_url';
// Plans: published plans, sub-tasks and sub-task claims
export {
  claimedSubtasksOfSession,
  claimSubtask,
  completeSubtask,
  countPlans,
  countSubtaskClaims,
  countSubtasks,
  findPlan,
  getPlan,
  getSubtask,
  insertPlan,
  insertSubtask,
  listPlans,
  markPlanArchived,
  type NewPlan,
  type NewSubtask,
  type PlacedSubtask,
  type Plan,
  type PlanFilter,
  type PlanStatus,
  type PlanSubtask,
  type PlanSubtaskClaim,
  plansWithSlug,
  releaseSubtaskClaim,
  type SubtaskClaimer,
  type SubtaskClaimState,
  type SubtaskStatus,
  subtaskClaims,
  subtasksForSpecRow,
  subtasksOfPlans,
  unblockSubtasks,
} from './plans';
// Agent capability profiles
export { type AgentProfile, getProfile, getProfiles, listProfiles, upsertProfile } from './profiles';
// Proposals
export {
  insertReinforcement,
  listReinforcements,
  type NewReinforcement,
  type Reinforcement,
} from './proposal-reinforcements';
export {
  getProposal,
  insertProposal,
  listProposals,
  type NewProposal,
  type Proposal,
  type ProposalFilter,
  promoteProposal,
} from './proposals';
// Work queue (seed 000)
export {
  completeQueueItem,
  extendQueueLease,
  getQueueItem,
  insertQueueItem,
  type Lease,
  leaseQueueItem,
  type NewQueueItem,
  type QueueCounts,
  type QueueItem,
  type QueueStatus,
  queueCounts,
  queueFront,
  takeNextQueueItem,
} from './queue-items';
// Ready and stranded work
export {
  activeClaimsOfIdleSessions,
  countActivePlans,
  type IdleClaim,
  type IdleSubtask,
  type LiveClaimRef,
  liveClaimsOfSession,
  othersLiveClaimsOnFiles,
  QUIET_LANES_SQL,
  type QuietLane,
  quietLanes,
  type ReadySubtaskRow,
  readySubtaskRows,
  recentSessionAgents,
  slugsInSeveralRepos,
  subtasksClaimedByIdleSessions,
  subtasksOfTasks,
} from './ready-work';
export {
  type ReceiptErrorReason,
  type ReceiptHour,
  type ReceiptTotals,
  type ReceiptWindow,
  receiptErrorReasons,
  receiptsByHour,
  receiptTotals,
} from './receipt-summaries';
export type { JsonObject } from './schema';
// Sessions
export { endSession, heartbeatSessions, prepareTouchSession, touchSession } from './session-heartbeats';
export {
  countSessions,
  getSession,
  getSessions,
  listSessions,
  type Session,
  type SessionInput,
  upsertSession,
} from './sessions';
// Spec failures
export { countSpecFailure, type FailureReport, type SpecFailure, setSpecFailureProposal } from './spec-failures';
// Swarm runs (seed 004 swarm_run) and their tasks
export {
  clearSwarmTaskGroups,
  finishSwarmRun,
  getSwarmRun,
  insertSwarmRun,
  interruptSwarmTasks,
  runningSwarmRuns,
  type SwarmRunRow,
  type SwarmRunState,
  type SwarmTaskRow,
  swarmRunsInState,
  swarmTasksOf,
  updateSwarmTask,
} from './swarm-runs';
// Task history (suggestions)
export { type TaskFileTouch, type TaskHistory, taskFileTouches, taskHistories } from './task-history';
export { type TaskWarning, taskWarnings } from './task-warnings';
// Task threads
export {
  activeTasksOfSession,
  countTasks,
  countTasksMatching,
  ensureTask,
  findTask,
  getParticipant,
  getTask,
  joinTask,
  listParticipants,
  listTasks,
  type NewTask,
  type Participant,
  type Task,
  type TaskFilter,
  touchTask,
} from './tasks';
// Export and import (colony-store JSON lines; see transfer/format.ts)
export {
  StoreTransferError,
  TRANSFER_ERROR_CODES,
  type TransferErrorCode,
} from './transfer/errors';
export { type ExportOptions, exportStore } from './transfer/export-store';
export {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportEnd,
  type ExportHeader,
  type TransferCounts,
} from './transfer/format';
export { importStore } from './transfer/import-store';
export { type ColumnType, type TransferColumn, type TransferTable, transferTables } from './transfer/tables';
// Embedding vectors (hybrid search, suggestions)
export {
  countVectors,
  insertVectors,
  maxObservationId,
  type NewVector,
  observationsWithoutVector,
  type TaskVectorSum,
  taskVectorSums,
  type UnembeddedRow,
  vectorsOf,
} from './vectors';
export {
  getWorkflowRun,
  insertWorkflowRun,
  listWorkflowRuns,
  setWorkflowRunState,
  setWorkflowStage,
  type WorkflowRunRow,
  type WorkflowStageRow,
  workflowStagesOf,
} from './workflow-runs';
// Write proposals (seed 000)
export {
  countWriteProposals,
  decideWriteProposal,
  getWriteProposal,
  insertWriteProposal,
  listPendingProposals,
  type NewWriteProposal,
  type ProposalDecision,
  type ProposalStatus,
  pendingProposalFor,
  type WriteProposal,
} from './write-proposals';
