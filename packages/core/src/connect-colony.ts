/**
 * @module connect-colony
 * Opens colony on either backend: a SQLite file (what `openColony` does), or a
 * PostgreSQL URL, whose store (@swarm/storage/pg, loaded by dynamic import only here,
 * so a SQLite colony never loads `pg`) must connect before the services are built.
 */
import { ColonyError } from '@swarm/tools';
import { busyTimeoutFromEnv, type Colony, type OpenColonyOptions, openColony, refuseAsToolError } from './open-colony';

/** Whether `db` names a PostgreSQL database (`postgres://` or `postgresql://`) rather than a file. */
export function isPostgresUrl(db: string | undefined): db is string {
  return db !== undefined && /^postgres(ql)?:\/\//i.test(db);
}

/**
 * `openColony`, where `dbPath` may also be a PostgreSQL URL. The store's refusals are
 * tool errors as on SQLite; a server that cannot be reached (or refuses the login) is
 * STORE_UNREACHABLE, a missing `pg` package FEATURE_UNAVAILABLE, and neither error nor
 * `colony.dbPath` shows the URL's password.
 */
export async function connectColony(options: OpenColonyOptions = {}): Promise<Colony> {
  const url = options.dbPath;
  if (!isPostgresUrl(url)) return openColony(options);
  const { openPgStore } = await import('@swarm/storage/pg');
  const store = await openPgStore(url, { refuse: refuseAsToolError, ...busyTimeoutFromEnv() }).catch((error) => {
    throw asToolError(error);
  });
  try {
    return openColony({ ...options, dbPath: undefined, store });
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** @swarm/storage/pg's open errors (messages without the password) as tool errors. */
function asToolError(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== 'PgStoreError') return error;
  const code = (error as Error & { code?: string }).code;
  return new ColonyError(code === 'PG_DRIVER_MISSING' ? 'FEATURE_UNAVAILABLE' : 'STORE_UNREACHABLE', error.message, {
    details: { reason: code },
  });
}
