/**
 * @module schema
 * The drizzle schema of colony's store, one file per table family. Current state lives
 * in normalized tables whose constraints enforce the invariants; history lives in
 * `observations`, which is append-only and mirrored into the FTS5 index
 * `observations_fts` by triggers (see drizzle/0001_fts.sql: raw SQL is allowed there
 * and only there). A new table family gets its own file here, re-exported below.
 */

export * from './calls';
export * from './claims';
export * from './framework';
export * from './history';
export * from './memory';
export * from './mesh';
export * from './messages';
export * from './plans';
export * from './profiles';
export * from './proposals';
export * from './runs';
export * from './specs';
export * from './threads';
export * from './workflows';
export * from './write-proposals';
