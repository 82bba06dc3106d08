/**
 * @module pg/queries
 * The query functions ported to PostgreSQL so far, with the names, arguments and
 * results of their SQLite twins in `src/` (async, taking a `PgStore`), checked by the
 * compiler (`PgTwins`). The seam the other modules follow is described in
 * openspec/changes/postgres-store/tasks.md.
 */
import type * as sqliteClaims from '../../claims';
import type * as sqliteObservations from '../../observations';
import type * as sqlitePlans from '../../plans';
import type { PgTwins } from './_twin';
import * as claims from './claims';
import * as claimsState from './claims-state';
import * as observations from './observations';
import * as subtaskClaims from './subtask-claims';

type Ported<M, K extends keyof PgTwins<M>> = Pick<PgTwins<M>, K>;

export const fileClaimQueries = { ...claims, ...claimsState } satisfies PgTwins<typeof sqliteClaims>;
export const subtaskClaimQueries = subtaskClaims satisfies Ported<typeof sqlitePlans, keyof typeof subtaskClaims>;
export const observationQueries = observations satisfies Ported<typeof sqliteObservations, keyof typeof observations>;

export * from './claims';
export * from './claims-state';
export { insertObservation, insertObservations } from './observations';
export * from './subtask-claims';
