/**
 * @swarm/storage/pg: colony's store on PostgreSQL (the foundation: schema derived from
 * the SQLite one, migrations, opening a database). Imported only by who names a
 * PostgreSQL URL; `@swarm/storage` itself never loads this module, pg-core or `pg`.
 * See docs/scale-out.md.
 */
export { type RefuseStore, StoreError, type StoreRefusal } from '../_store-state';
export { TS_CONFIG } from './_fts';
export { maskUrl, scrubSecret } from './_url';
export { applyPgMigrations, type PgQueryable } from './migrate';
export { isPostgresUrl, openPgDatabase, type PgDatabase, PgStoreError } from './open';
/** The query functions ported to PostgreSQL (see queries/index.ts). */
export * as pgQueries from './queries/index';
export { type PgTables, pgTables } from './schema';
export type { AfterCommit, WriteOptions as PgWriteOptions, WriteRider as PgWriteRider } from './store/_body';
export { type OpenPgStoreOptions, openPgStore, PG_APPLICATION_NAME, PG_BUSY_TIMEOUT_MS } from './store/open-store';
export { PgStore } from './store/pg-store';
export { exportPg } from './transfer/export-pg';
export { importPg } from './transfer/import-pg';
export {
  type ListenOptions,
  listenForWakes,
  type WakeListener,
  type WakeProblem,
  type WakeProblemCode,
} from './wake/listener';
export { parseWakeNotice, WAKE_CHANNEL, type WakeNotice, WakeNoticeSchema } from './wake/payload';
