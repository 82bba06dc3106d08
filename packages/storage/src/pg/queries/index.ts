/**
 * @module pg/queries
 * The query functions ported to PostgreSQL so far, with the names, arguments and
 * results of their SQLite twins in `src/` (async, taking a `PgStore`), checked by the
 * compiler (`PgTwins`). The seam the other modules follow is described in
 * openspec/changes/postgres-store/tasks.md.
 */

import type * as sqliteBatons from '../../batons';
import type * as sqliteClaims from '../../claims';
import type * as sqliteIdempotency from '../../idempotency';
import type * as sqliteLinks from '../../links';
import type * as sqliteMessages from '../../messages';
import type * as sqliteObservations from '../../observations';
import type * as sqlitePlans from '../../plans';
import type * as sqliteProfiles from '../../profiles';
import type * as sqliteSessionHeartbeats from '../../session-heartbeats';
import type * as sqliteSessions from '../../sessions';
import type * as sqliteTaskHistory from '../../task-history';
import type * as sqliteTaskWarnings from '../../task-warnings';
import type * as sqliteTasks from '../../tasks';
import type { PgTwins } from './_twin';
import * as batons from './batons';
import * as claims from './claims';
import * as claimsState from './claims-state';
import * as idempotency from './idempotency';
import * as links from './links';
import * as messages from './messages';
import * as messagesInbox from './messages-inbox';
import * as observations from './observations';
import * as profiles from './profiles';
import * as sessionHeartbeats from './session-heartbeats';
import * as sessions from './sessions';
import * as subtaskClaims from './subtask-claims';
import * as taskHistory from './task-history';
import * as taskWarnings from './task-warnings';
import * as tasks from './tasks';

type Ported<M, K extends keyof PgTwins<M>> = Pick<PgTwins<M>, K>;

export const fileClaimQueries = { ...claims, ...claimsState } satisfies PgTwins<typeof sqliteClaims>;
export const subtaskClaimQueries = subtaskClaims satisfies Ported<typeof sqlitePlans, keyof typeof subtaskClaims>;
export const observationQueries = observations satisfies Ported<typeof sqliteObservations, keyof typeof observations>;

export * from './claims';
export * from './claims-state';
export { insertObservation, insertObservations } from './observations';
export * from './subtask-claims';

// tasks group (feat/pgtasks)
/** `effectiveStatus` is a pure helper (no store), shared from src/messages.ts, not twinned. */
export const messageQueries = { ...messages, ...messagesInbox } satisfies Ported<
  typeof sqliteMessages,
  Exclude<keyof typeof sqliteMessages, 'effectiveStatus'>
>;
export const batonQueries = batons satisfies PgTwins<typeof sqliteBatons>;
export const idempotencyQueries = idempotency satisfies PgTwins<typeof sqliteIdempotency>;
/** `linkKey` is a pure helper (no store), shared from src/links.ts, not twinned. */
export const linkQueries = links satisfies Ported<typeof sqliteLinks, Exclude<keyof typeof sqliteLinks, 'linkKey'>>;
export const profileQueries = profiles satisfies PgTwins<typeof sqliteProfiles>;
export const sessionHeartbeatQueries = sessionHeartbeats satisfies PgTwins<typeof sqliteSessionHeartbeats>;
export const sessionQueries = sessions satisfies PgTwins<typeof sqliteSessions>;
export const taskHistoryQueries = taskHistory satisfies PgTwins<typeof sqliteTaskHistory>;
export const taskQueries = tasks satisfies PgTwins<typeof sqliteTasks>;
export const taskWarningQueries = taskWarnings satisfies PgTwins<typeof sqliteTaskWarnings>;
export * from './batons';
export * from './idempotency';
export * from './links';
export * from './messages';
export * from './messages-inbox';
export * from './profiles';
export * from './session-heartbeats';
export * from './sessions';
export * from './task-history';
export * from './task-warnings';
export * from './tasks';
