/**
 * @module pg/queries
 * The query functions ported to PostgreSQL so far, with the names, arguments and
 * results of their SQLite twins in `src/` (async, taking a `PgStore`), checked by the
 * compiler (`PgTwins`). The seam the other modules follow is described in
 * openspec/changes/postgres-store/tasks.md.
 */
import type * as sqliteCheckpoint from '../../checkpoint';
import type * as sqliteClaims from '../../claims';
import type * as sqliteIterationRuns from '../../iteration-runs';
import type * as sqliteMeshContext from '../../mesh-context';
import type * as sqliteMeshInbox from '../../mesh-inbox';
import type * as sqliteMeshMessages from '../../mesh-messages';
import type * as sqliteObservations from '../../observations';
import type * as sqlitePlans from '../../plans';
import type * as sqliteSwarmRuns from '../../swarm-runs';
import type * as sqliteWorkflowRuns from '../../workflow-runs';
import type { PgTwins } from './_twin';
import * as checkpoint from './checkpoint';
import * as claims from './claims';
import * as claimsState from './claims-state';
import * as iterationRuns from './iteration-runs';
import * as meshContext from './mesh-context';
import * as meshInbox from './mesh-inbox';
import * as meshMessages from './mesh-messages';
import * as observations from './observations';
import * as subtaskClaims from './subtask-claims';
import * as swarmRuns from './swarm-runs';
import * as workflowRuns from './workflow-runs';

type Ported<M, K extends keyof PgTwins<M>> = Pick<PgTwins<M>, K>;

export const fileClaimQueries = { ...claims, ...claimsState } satisfies PgTwins<typeof sqliteClaims>;
export const subtaskClaimQueries = subtaskClaims satisfies Ported<typeof sqlitePlans, keyof typeof subtaskClaims>;
export const observationQueries = observations satisfies Ported<typeof sqliteObservations, keyof typeof observations>;
export const meshContextQueries = meshContext satisfies PgTwins<typeof sqliteMeshContext>;
export const meshInboxQueries = meshInbox satisfies PgTwins<typeof sqliteMeshInbox>;
export const meshMessageQueries = meshMessages satisfies PgTwins<typeof sqliteMeshMessages>;
export const iterationRunQueries = iterationRuns satisfies PgTwins<typeof sqliteIterationRuns>;
export const workflowRunQueries = workflowRuns satisfies PgTwins<typeof sqliteWorkflowRuns>;
export const swarmRunQueries = swarmRuns satisfies PgTwins<typeof sqliteSwarmRuns>;
export const checkpointQueries = checkpoint satisfies PgTwins<typeof sqliteCheckpoint>;

export * from './checkpoint';
export * from './claims';
export * from './claims-state';
export * from './iteration-runs';
export * from './mesh-context';
export * from './mesh-inbox';
export * from './mesh-messages';
export { insertObservation, insertObservations } from './observations';
export * from './subtask-claims';
export * from './swarm-runs';
export * from './workflow-runs';
