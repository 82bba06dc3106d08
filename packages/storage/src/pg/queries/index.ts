/**
 * @module pg/queries
 * The query functions ported to PostgreSQL so far, with the names, arguments and
 * results of their SQLite twins in `src/` (async, taking a `PgStore`), checked by the
 * compiler (`PgTwins`). The seam the other modules follow is described in
 * openspec/changes/postgres-store/tasks.md.
 */
import type * as sqliteAttention from '../../attention';
import type * as sqliteBatons from '../../batons';
import type * as sqliteCheckpoint from '../../checkpoint';
import type * as sqliteClaims from '../../claims';
import type * as sqliteContextEntries from '../../context-entries';
import type * as sqliteExamples from '../../examples';
import type * as sqliteIdempotency from '../../idempotency';
import type * as sqliteIterationRuns from '../../iteration-runs';
import type * as sqliteLanes from '../../lanes';
import type * as sqliteLinks from '../../links';
import type * as sqliteMeshContext from '../../mesh-context';
import type * as sqliteMeshInbox from '../../mesh-inbox';
import type * as sqliteMeshMessages from '../../mesh-messages';
import type * as sqliteMessages from '../../messages';
import type * as sqliteMetrics from '../../metrics';
import type * as sqliteObservations from '../../observations';
import type * as sqlitePlans from '../../plans';
import type * as sqliteProfiles from '../../profiles';
import type * as sqliteProposalReinforcements from '../../proposal-reinforcements';
import type * as sqliteProposals from '../../proposals';
import type * as sqliteQueueItems from '../../queue-items';
import type * as sqliteReadyWork from '../../ready-work';
import type * as sqliteReceiptSummaries from '../../receipt-summaries';
import type * as sqliteSerialWrites from '../../serial-writes';
import type * as sqliteSessionHeartbeats from '../../session-heartbeats';
import type * as sqliteSessions from '../../sessions';
import type * as sqliteSpecFailures from '../../spec-failures';
import type * as sqliteSwarmRuns from '../../swarm-runs';
import type * as sqliteTaskHistory from '../../task-history';
import type * as sqliteTaskWarnings from '../../task-warnings';
import type * as sqliteTasks from '../../tasks';
import type * as sqliteVectors from '../../vectors';
import type * as sqliteWorkflowRuns from '../../workflow-runs';
import type * as sqliteWriteProposals from '../../write-proposals';
import type { PgTwins } from './_twin';
import * as attention from './attention';
import * as batons from './batons';
import * as checkpoint from './checkpoint';
import * as claims from './claims';
import * as claimsState from './claims-state';
import * as contextEntries from './context-entries';
import * as examples from './examples';
import * as idempotency from './idempotency';
import * as iterationRuns from './iteration-runs';
import * as lanes from './lanes';
import * as links from './links';
import * as meshContext from './mesh-context';
import * as meshInbox from './mesh-inbox';
import * as meshMessages from './mesh-messages';
import * as messages from './messages';
import * as messagesInbox from './messages-inbox';
import * as metrics from './metrics';
import * as observations from './observations';
import * as observationsRead from './observations-read';
import * as observationsSearch from './observations-search';
import * as observationsTimeline from './observations-timeline';
import * as planSubtasks from './plan-subtasks';
import * as plans from './plans';
import * as profiles from './profiles';
import * as proposalReinforcements from './proposal-reinforcements';
import * as proposals from './proposals';
import * as queueItems from './queue-items';
import * as readyWork from './ready-work';
import * as receiptSummaries from './receipt-summaries';
import * as serialWrites from './serial-writes';
import * as sessionHeartbeats from './session-heartbeats';
import * as sessions from './sessions';
import * as specFailures from './spec-failures';
import * as subtaskClaims from './subtask-claims';
import * as swarmRuns from './swarm-runs';
import * as taskHistory from './task-history';
import * as taskWarnings from './task-warnings';
import * as tasks from './tasks';
import * as vectors from './vectors';
import * as workflowRuns from './workflow-runs';
import * as writeProposals from './write-proposals';

/** Every twin of a module but its pure helpers (functions without a store: ftsMatchExpression, effectiveStatus, linkKey), which both dialects share. */
type TwinsBut<M, Pure extends keyof PgTwins<M>> = Omit<PgTwins<M>, Pure>;

export const fileClaimQueries = { ...claims, ...claimsState } satisfies PgTwins<typeof sqliteClaims>;
export const planQueries = { ...plans, ...planSubtasks, ...subtaskClaims } satisfies TwinsBut<
  typeof sqlitePlans,
  never
>;
export const observationQueries = {
  ...observations,
  ...observationsRead,
  ...observationsSearch,
  ...observationsTimeline,
} satisfies TwinsBut<typeof sqliteObservations, 'ftsMatchExpression'>;
export const attentionQueries = attention satisfies PgTwins<typeof sqliteAttention>;
export const contextEntryQueries = contextEntries satisfies PgTwins<typeof sqliteContextEntries>;
export const exampleQueries = examples satisfies PgTwins<typeof sqliteExamples>;
export const metricQueries = metrics satisfies PgTwins<typeof sqliteMetrics>;
export const receiptSummaryQueries = receiptSummaries satisfies PgTwins<typeof sqliteReceiptSummaries>;
export const vectorQueries = vectors satisfies PgTwins<typeof sqliteVectors>;
export const meshContextQueries = meshContext satisfies PgTwins<typeof sqliteMeshContext>;
export const meshInboxQueries = meshInbox satisfies PgTwins<typeof sqliteMeshInbox>;
export const meshMessageQueries = meshMessages satisfies PgTwins<typeof sqliteMeshMessages>;
export const iterationRunQueries = iterationRuns satisfies PgTwins<typeof sqliteIterationRuns>;
export const workflowRunQueries = workflowRuns satisfies PgTwins<typeof sqliteWorkflowRuns>;
export const swarmRunQueries = swarmRuns satisfies PgTwins<typeof sqliteSwarmRuns>;
export const checkpointQueries = checkpoint satisfies PgTwins<typeof sqliteCheckpoint>;

export const messageQueries = { ...messages, ...messagesInbox } satisfies TwinsBut<
  typeof sqliteMessages,
  'effectiveStatus'
>;
export const batonQueries = batons satisfies PgTwins<typeof sqliteBatons>;
export const idempotencyQueries = idempotency satisfies PgTwins<typeof sqliteIdempotency>;
export const linkQueries = links satisfies TwinsBut<typeof sqliteLinks, 'linkKey'>;
export const profileQueries = profiles satisfies PgTwins<typeof sqliteProfiles>;
export const sessionHeartbeatQueries = sessionHeartbeats satisfies PgTwins<typeof sqliteSessionHeartbeats>;
export const sessionQueries = sessions satisfies PgTwins<typeof sqliteSessions>;
export const taskHistoryQueries = taskHistory satisfies PgTwins<typeof sqliteTaskHistory>;
export const taskQueries = tasks satisfies PgTwins<typeof sqliteTasks>;
export const proposalQueries = proposals satisfies PgTwins<typeof sqliteProposals>;
export const proposalReinforcementQueries = proposalReinforcements satisfies PgTwins<
  typeof sqliteProposalReinforcements
>;
export const specFailureQueries = specFailures satisfies PgTwins<typeof sqliteSpecFailures>;
export const queueItemQueries = queueItems satisfies PgTwins<typeof sqliteQueueItems>;
export const writeProposalQueries = writeProposals satisfies PgTwins<typeof sqliteWriteProposals>;
export const laneQueries = lanes satisfies PgTwins<typeof sqliteLanes>;
export const readyWorkQueries = readyWork satisfies PgTwins<typeof sqliteReadyWork>;
export const taskWarningQueries = taskWarnings satisfies PgTwins<typeof sqliteTaskWarnings>;
export const serialWriteQueries = serialWrites satisfies PgTwins<typeof sqliteSerialWrites>;

export * from './attention';
export * from './batons';
export * from './checkpoint';
export * from './claims';
export * from './claims-state';
export * from './context-entries';
export * from './examples';
export * from './idempotency';
export * from './iteration-runs';
export * from './lanes';
export * from './links';
export * from './mesh-context';
export * from './mesh-inbox';
export * from './mesh-messages';
export * from './messages';
export * from './messages-inbox';
export * from './metrics';
export { insertObservation, insertObservations, insertObservationTouching } from './observations';
export * from './observations-read';
export * from './observations-search';
export { sessionTimeline, taskTimeline, taskUpdatesSince } from './observations-timeline';
export * from './plan-subtasks';
export * from './plans';
export * from './profiles';
export * from './proposal-reinforcements';
export * from './proposals';
export * from './queue-items';
export * from './ready-work';
export * from './receipt-summaries';
export * from './serial-writes';
export * from './session-heartbeats';
export * from './sessions';
export * from './spec-failures';
export * from './subtask-claims';
export * from './swarm-runs';
export * from './task-history';
export * from './task-warnings';
export * from './tasks';
export * from './vectors';
export * from './workflow-runs';
export * from './write-proposals';
