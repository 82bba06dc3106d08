/**
 * @swarm/storage: colony's store. This file is the whole public API.
 * Schema, migrations and per-aggregate query functions on SQLite (better-sqlite3 +
 * drizzle-orm, WAL). All SQL of the system lives in this package.
 */

import { dispatched } from './_dialect';
import * as attentionSql from './attention';
import * as batonsSql from './batons';
import * as checkpointSql from './checkpoint';
import * as claimsSql from './claims';
import * as contextEntriesSql from './context-entries';
import * as examplesSql from './examples';
import * as idempotencySql from './idempotency';
import * as iterationRunsSql from './iteration-runs';
import * as lanesSql from './lanes';
import * as linksSql from './links';
import * as meshContextSql from './mesh-context';
import * as meshInboxSql from './mesh-inbox';
import * as meshMessagesSql from './mesh-messages';
import * as messagesSql from './messages';
import * as metricsSql from './metrics';
import * as observationsSql from './observations';
import * as plansSql from './plans';
import * as profilesSql from './profiles';
import * as proposalReinforcementsSql from './proposal-reinforcements';
import * as proposalsSql from './proposals';
import * as queueItemsSql from './queue-items';
import * as readyWorkSql from './ready-work';
import * as receiptSummariesSql from './receipt-summaries';
import * as sessionHeartbeatsSql from './session-heartbeats';
import * as sessionsSql from './sessions';
import * as specFailuresSql from './spec-failures';
import * as swarmRunsSql from './swarm-runs';
import * as taskHistorySql from './task-history';
import * as taskWarningsSql from './task-warnings';
import * as tasksSql from './tasks';
import * as exportStoreSql from './transfer/export-store';
import * as importStoreSql from './transfer/import-store';
import * as vectorsSql from './vectors';
import * as workflowRunsSql from './workflow-runs';
import * as writeProposalsSql from './write-proposals';
import * as writeScopesSql from './write-scopes';

// Opening a store
export type { ColonyStore, ColonyWriteOptions, ColonyWriteRider, StoreDialect } from './_colony-store';
export { andThen, type Dispatched, type DispatchedModule } from './_dialect';
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
export type {
  AttentionClaim,
  AttentionEdit,
  AttentionScope,
  AttentionSubtask,
  OpenBlockerPost,
} from './attention';
// Batons: handoffs and relays
export type {
  Baton,
  BatonKind,
  BatonStatus,
  NewBaton,
  OpenBaton,
  Resolution,
} from './batons';
// WAL checkpoints
export {
  CHECKPOINT_MODES,
  type CheckpointMode,
  type CheckpointResult,
  DEFAULT_AUTO_CHECKPOINT_PAGES,
} from './checkpoint';
// File claims
export type {
  ClaimState,
  FileClaim,
  NewClaim,
  RepoClaim,
} from './claims';
// Shared context (seed 000)
export type {
  ContextEntry,
  ContextWrite,
} from './context-entries';
// Example projects (food sources) and their foraged patterns
export {
  type ExampleRow,
  type ExampleWrite,
  FORAGED_PATTERN_KIND,
  type IndexedPattern,
} from './examples';
// Idempotency keys
export type { IdempotentResult } from './idempotency';
// Workflow runs and their stages; iteration runs and their iterations
export type {
  IterationRow,
  IterationRunRow,
} from './iteration-runs';
// Lanes: live sessions on task threads, and what waits in their scope
export type {
  LaneClaim,
  LaneFilter,
  LaneRow,
  ScopeAttention,
  ScopeWarning,
} from './lanes';
// Task links
export {
  linkKey,
  type NewTaskLink,
  type TaskLink,
} from './links';
// Context mesh and agent messages (seed 001)
export type {
  MeshEntry,
  MeshEntryWrite,
  MeshKeyFilter,
} from './mesh-context';
export type {
  InboxMeshMessage,
  MeshInboxFilter,
} from './mesh-inbox';
export type {
  NewMeshMessage,
  ThreadMembership,
} from './mesh-messages';
// Messages
export {
  effectiveStatus,
  type InboxFilter,
  type InboxMessage,
  type Message,
  type NewMessage,
} from './messages';
// Receipts
export type { Bookkeeping, Receipt } from './metrics';
export type { EmbeddedMigration } from './migrate';
// Observations and search
export {
  FTS_BATCH,
  ftsMatchExpression,
  type KeywordFilter,
  type KeywordHit,
  MATCH_CLOSE,
  MATCH_OPEN,
  type MarkedMatch,
  type NewObservation,
  type Observation,
  type ObservationRef,
  type ObservationTouches,
  RANK_POOL,
  type TokenCountRefinement,
} from './observations';
/** PostgreSQL URLs as shown (password masked); no PostgreSQL code is loaded by this. */
export { maskUrl, scrubSecret } from './pg/_url';
// Plans: published plans, sub-tasks and sub-task claims
export type {
  NewPlan,
  NewSubtask,
  PlacedSubtask,
  Plan,
  PlanFilter,
  PlanStatus,
  PlanSubtask,
  PlanSubtaskClaim,
  SubtaskClaimer,
  SubtaskClaimState,
  SubtaskStatus,
} from './plans';
// Agent capability profiles
export type { AgentProfile } from './profiles';
// Proposals
export type {
  NewReinforcement,
  Reinforcement,
} from './proposal-reinforcements';
export type {
  NewProposal,
  Proposal,
  ProposalFilter,
} from './proposals';
// Work queue (seed 000)
export type {
  Lease,
  NewQueueItem,
  QueueCounts,
  QueueItem,
  QueueStatus,
} from './queue-items';
// Ready and stranded work
export {
  type IdleClaim,
  type IdleSubtask,
  type LiveClaimRef,
  QUIET_LANES_SQL,
  type QuietLane,
  type ReadySubtaskRow,
} from './ready-work';
export type {
  ReceiptErrorReason,
  ReceiptHour,
  ReceiptTotals,
  ReceiptWindow,
} from './receipt-summaries';
export type { JsonObject } from './schema';
// Writes that take turns by topic (read, then decide, then write)
// Sessions
export type {
  Session,
  SessionInput,
} from './sessions';
// Spec failures
export type { FailureReport, SpecFailure } from './spec-failures';
// Swarm runs (seed 004 swarm_run) and their tasks
export type {
  SwarmRunRow,
  SwarmRunState,
  SwarmTaskRow,
} from './swarm-runs';
// Task history (suggestions)
export type { TaskFileTouch, TaskHistory } from './task-history';
export type { TaskWarning } from './task-warnings';
// Task threads
export type {
  NewTask,
  Participant,
  Task,
  TaskFilter,
} from './tasks';
// Export and import (colony-store JSON lines; see transfer/format.ts)
export {
  StoreTransferError,
  TRANSFER_ERROR_CODES,
  type TransferErrorCode,
} from './transfer/errors';
export type { ExportOptions } from './transfer/export-store';
export {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportEnd,
  type ExportHeader,
  type TransferCounts,
} from './transfer/format';
export { type ColumnType, type TransferColumn, type TransferTable, transferTables } from './transfer/tables';
// Embedding vectors (hybrid search, suggestions)
export type {
  NewVector,
  TaskVectorSum,
  UnembeddedRow,
} from './vectors';
export type {
  WorkflowRunRow,
  WorkflowStageRow,
} from './workflow-runs';
// Write proposals (seed 000)
export type {
  NewWriteProposal,
  ProposalDecision,
  ProposalStatus,
  WriteProposal,
} from './write-proposals';
// Store-first query functions, as dispatchers on the store's dialect (see _dialect.ts)
export const {
  claimedSubtasksInScope,
  existingTaskIds,
  liveClaimsInScope,
  openBlockerPosts,
  recentEditsInScope,
  sessionThreadsInScope,
} = dispatched(attentionSql);
export const {
  countBatons,
  getBaton,
  insertBaton,
  openBatonsForSession,
  overduePendingBatons,
  pendingBatonOfFile,
  resolveBaton,
  retargetBaton,
} = dispatched(batonsSql);
export const { autoCheckpointPages, checkpoint, setAutoCheckpoint } = dispatched(checkpointSql);
export const {
  claimsOnRepoFile,
  countClaims,
  expiredPendingClaims,
  findLiveClaim,
  insertClaim,
  markClaimsPending,
  othersLiveClaims,
  pendingClaimsOfBaton,
  refreshClaim,
  releaseLiveClaims,
  sessionClaims,
  settlePendingClaims,
  touchActiveClaim,
  weakenClaims,
} = dispatched(claimsSql);
export const { contextVersion, getContext, listContextKeys, setContext, setContextIfVersion } =
  dispatched(contextEntriesSql);
export const {
  deleteExamples,
  getExample,
  listExamples,
  markExamplesScanned,
  reindexExamplePatterns,
  searchExamplePatterns,
  upsertExample,
} = dispatched(examplesSql);
export const { deleteIdempotentResult, findIdempotentResult, replaceIdempotentResult, saveIdempotentResult } =
  dispatched(idempotencySql);
export const { lockWriteScope } = dispatched(writeScopesSql);
export const {
  finishIteration,
  getIterationRun,
  insertIterationRun,
  iterationsOf,
  reopenIterationRun,
  startIteration,
  stopIterationRun,
} = dispatched(iterationRunsSql);
export const {
  countReadySubtasks,
  lanesInScope,
  lanesOfSession,
  latestWorkingNote,
  liveClaimsOfSessions,
  liveClaimsOfTask,
  scopeAttention,
  scopeWarnings,
} = dispatched(lanesSql);
export const { countTaskLinks, deleteTaskLink, getTaskLink, insertTaskLink, listTaskLinks } = dispatched(linksSql);
export const { countMeshEntries, deleteMeshEntry, getMeshEntry, listMeshKeys, purgeExpiredMeshEntries, putMeshEntry } =
  dispatched(meshContextSql);
export const { countMeshUnread, listMeshInbox, markMeshMessageRead } = dispatched(meshInboxSql);
export const { countMeshMessages, insertMeshMessage, meshThreadMembership } = dispatched(meshMessagesSql);
export const {
  claimMessage,
  countMessages,
  expireMessage,
  getMessage,
  insertMessage,
  listInboxMessages,
  markMessageRead,
  markMessageReplied,
  retractMessage,
} = dispatched(messagesSql);
export const { countCalls, insertReceipts, listReceipts, writeBookkeeping } = dispatched(metricsSql);
export const {
  countObservations,
  editedFilesSince,
  getObservation,
  getObservations,
  indexPendingObservations,
  insertObservation,
  insertObservations,
  insertObservationTouching,
  keywordSearch,
  liveMatches,
  refineTokenCounts,
  repliesTo,
  sessionTimeline,
  taskTimeline,
  taskUpdatesSince,
} = dispatched(observationsSql);
export const {
  claimedSubtasksOfSession,
  claimSubtask,
  holdAvailableSubtask,
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
  plansWithSlug,
  releaseSubtaskClaim,
  subtaskClaims,
  subtasksForSpecRow,
  subtasksOfPlans,
  unblockSubtasks,
} = dispatched(plansSql);
export const { getProfile, getProfiles, listProfiles, upsertProfile } = dispatched(profilesSql);
export const { insertReinforcement, listReinforcements } = dispatched(proposalReinforcementsSql);
export const { getProposal, insertProposal, listProposals, promoteProposal } = dispatched(proposalsSql);
export const {
  completeQueueItem,
  extendQueueLease,
  getQueueItem,
  insertQueueItem,
  leaseQueueItem,
  queueCounts,
  queueFront,
  takeNextQueueItem,
} = dispatched(queueItemsSql);
export const {
  activeClaimsOfIdleSessions,
  countActivePlans,
  liveClaimsOfSession,
  othersLiveClaimsOnFiles,
  quietLanes,
  readySubtaskRows,
  recentSessionAgents,
  slugsInSeveralRepos,
  subtasksClaimedByIdleSessions,
  subtasksOfTasks,
} = dispatched(readyWorkSql);
export const { receiptErrorReasons, receiptsByHour, receiptTotals } = dispatched(receiptSummariesSql);
export const { endSession, heartbeatSessions, prepareTouchSession, touchSession } = dispatched(sessionHeartbeatsSql);
export const { countSessions, getSession, getSessions, listSessions, upsertSession } = dispatched(sessionsSql);
export const { countSpecFailure, setSpecFailureProposal } = dispatched(specFailuresSql);
export const {
  clearSwarmTaskGroups,
  finishSwarmRun,
  getSwarmRun,
  insertSwarmRun,
  interruptSwarmTasks,
  runningSwarmRuns,
  swarmRunsInState,
  swarmTasksOf,
  updateSwarmTask,
} = dispatched(swarmRunsSql);
export const { taskFileTouches, taskHistories } = dispatched(taskHistorySql);
export const { taskWarnings } = dispatched(taskWarningsSql);
export const {
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
  touchTask,
} = dispatched(tasksSql);
export const { exportStore } = dispatched(exportStoreSql);
export const { importStore } = dispatched(importStoreSql);
export const { countVectors, insertVectors, maxObservationId, observationsWithoutVector, taskVectorSums, vectorsOf } =
  dispatched(vectorsSql);
export const {
  getWorkflowRun,
  insertWorkflowRun,
  listWorkflowRuns,
  setWorkflowRunState,
  setWorkflowStage,
  workflowStagesOf,
} = dispatched(workflowRunsSql);
export const {
  countWriteProposals,
  decideWriteProposal,
  getWriteProposal,
  insertWriteProposal,
  listPendingProposals,
  pendingProposalFor,
} = dispatched(writeProposalsSql);
