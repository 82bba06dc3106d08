/**
 * @module pg/queries
 * The query functions ported to PostgreSQL so far, with the names, arguments and
 * results of their SQLite twins in `src/` (async, taking a `PgStore`), checked by the
 * compiler (`PgTwins`). The seam the other modules follow is described in
 * openspec/changes/postgres-store/tasks.md.
 */

import type * as sqliteAttention from '../../attention';
import type * as sqliteClaims from '../../claims';
import type * as sqliteContextEntries from '../../context-entries';
import type * as sqliteExamples from '../../examples';
import type * as sqliteMetrics from '../../metrics';
import type * as sqliteObservations from '../../observations';
import type * as sqlitePlans from '../../plans';
import type * as sqliteReceiptSummaries from '../../receipt-summaries';
import type * as sqliteVectors from '../../vectors';
import type { PgTwins } from './_twin';
import * as attention from './attention';
import * as claims from './claims';
import * as claimsState from './claims-state';
import * as contextEntries from './context-entries';
import * as examples from './examples';
import * as metrics from './metrics';
import * as observations from './observations';
import * as observationsRead from './observations-read';
import * as observationsSearch from './observations-search';
import * as observationsTimeline from './observations-timeline';
import * as receiptSummaries from './receipt-summaries';
import * as subtaskClaims from './subtask-claims';
import * as vectors from './vectors';

type Ported<M, K extends keyof PgTwins<M>> = Pick<PgTwins<M>, K>;

export const fileClaimQueries = { ...claims, ...claimsState } satisfies PgTwins<typeof sqliteClaims>;
export const subtaskClaimQueries = subtaskClaims satisfies Ported<typeof sqlitePlans, keyof typeof subtaskClaims>;
/** Every twin of a module but its pure helpers (functions without a store). */
type TwinsBut<M, Pure extends keyof PgTwins<M>> = Omit<PgTwins<M>, Pure>;

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

export * from './attention';
export * from './claims';
export * from './claims-state';
export * from './context-entries';
export * from './examples';
export * from './metrics';
export { insertObservation, insertObservations } from './observations';
export * from './observations-read';
export * from './observations-search';
export { sessionTimeline, taskTimeline, taskUpdatesSince } from './observations-timeline';
export * from './receipt-summaries';
export * from './subtask-claims';
export * from './vectors';
