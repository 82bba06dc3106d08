/**
 * @module pg/queries
 * The query functions ported to PostgreSQL so far, with the names, arguments and
 * results of their SQLite twins in `src/` (async, taking a `PgStore`). The seam the
 * other modules follow is described in openspec/changes/postgres-store/tasks.md.
 */
export * from './claims';
export * from './claims-state';
export { insertObservation, insertObservations } from './observations';
export * from './subtask-claims';
