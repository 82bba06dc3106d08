/**
 * @module pg/queries
 * The query functions ported to PostgreSQL so far, with the names, arguments and
 * results of their SQLite twins in `src/` (async, taking a `PgStore`), checked by the
 * compiler (`PgTwins`). The seam the other modules follow is described in
 * openspec/changes/postgres-store/tasks.md.
 */
import type * as sqliteAttention from '../../attention';
import type * as sqliteCheckpoint from '../../checkpoint';
import type * as sqliteClaims from '../../claims';
import type * as sqliteContextEntries from '../../context-entries';
import type * as sqliteExamples from '../../examples';
import type * as sqliteIterationRuns from '../../iteration-runs';
import type * as sqliteMeshContext from '../../mesh-context';
import type * as sqliteMeshInbox from '../../mesh-inbox';
import type * as sqliteMeshMessages from '../../mesh-messages';
import type * as sqliteMetrics from '../../metrics';
import type * as sqliteObservations from '../../observations';
import type * as sqlitePlans from '../../plans';
import type * as sqliteReceiptSummaries from '../../receipt-summaries';
import type * as sqliteSwarmRuns from '../../swarm-runs';
import type * as sqliteVectors from '../../vectors';
import type * as sqliteWorkflowRuns from '../../workflow-runs';
import type { PgTwins } from './_twin';
import * as attention from './attention';
import * as checkpoint from './checkpoint';
import * as claims from './claims';
import * as claimsState from './claims-state';
import * as contextEntries from './context-entries';
import * as examples from './examples';
import * as iterationRuns from './iteration-runs';
import * as meshContext from './mesh-context';
import * as meshInbox from './mesh-inbox';
import * as meshMessages from './mesh-messages';
import * as metrics from './metrics';
import * as observations from './observations';
import * as observationsRead from './observations-read';
import * as observationsSearch from './observations-search';
import * as observationsTimeline from './observations-timeline';
import * as receiptSummaries from './receipt-summaries';
import * as subtaskClaims from './subtask-claims';
import * as swarmRuns from './swarm-runs';
import * as vectors from './vectors';
import * as workflowRuns from './workflow-runs';

type Ported<M, K extends keyof PgTwins<M>> = Pick<PgTwins<M>, K>;
/** Every twin of a module but its pure helpers (functions without a store). */
type TwinsBut<M, Pure extends keyof PgTwins<M>> = Omit<PgTwins<M>, Pure>;

export const fileClaimQueries = { ...claims, ...claimsState } satisfies PgTwins<typeof sqliteClaims>;
export const subtaskClaimQueries = subtaskClaims satisfies Ported<typeof sqlitePlans, keyof typeof subtaskClaims>;
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

export * from './attention';
export * from './checkpoint';
export * from './claims';
export * from './claims-state';
export * from './context-entries';
export * from './examples';
export * from './iteration-runs';
export * from './mesh-context';
export * from './mesh-inbox';
export * from './mesh-messages';
export * from './metrics';
export { insertObservation, insertObservations } from './observations';
export * from './observations-read';
export * from './observations-search';
export { sessionTimeline, taskTimeline, taskUpdatesSince } from './observations-timeline';
export * from './receipt-summaries';
export * from './subtask-claims';
export * from './swarm-runs';
export * from './vectors';
export * from './workflow-runs';
