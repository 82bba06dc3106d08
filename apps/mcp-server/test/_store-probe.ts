/**
 * A test store seen from outside its servers, on the backend under test (_backend.ts):
 * whether anything has opened it yet, all it holds as bytes (to show a secret never got
 * in), and a store that cannot open. On SQLite that is the file and its folder; on
 * PostgreSQL the path's database: its tables and clients, and a pg_dump of it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterUrl, findPgBin, psqlQuery } from '../../../test/support/pg-cluster.mjs';
import { dbFor, ON_POSTGRES, startStoresEmpty } from './_backend';

// A file that asks whether a store was opened needs stores that start empty.
startStoresEmpty();

/** Whether anything opened the store at `path`: its file exists, or its database has tables or another client. */
export function storeOpened(path: string): boolean {
  if (!ON_POSTGRES) return existsSync(path);
  const touched = psqlQuery(
    dbFor(path),
    `SELECT (SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema'))
          + (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid())`,
  );
  return Number(touched) > 0;
}

/** All the store at `path` holds, as bytes: every file of its folder (database, WAL, shared memory), or a dump. */
export function storeBytes(path: string): Buffer[] {
  if (!ON_POSTGRES) {
    const dir = join(path, '..');
    return readdirSync(dir).map((file) => readFileSync(join(dir, file)));
  }
  const dump = join(findPgBin() as string, 'pg_dump');
  return [execFileSync(dump, ['--dbname', dbFor(path), '--no-owner'], { timeout: 30_000, maxBuffer: 1 << 28 })];
}

/** A store that cannot open (its folder, or its server's socket folder, does not exist), and the first call's code. */
export const UNOPENABLE = ON_POSTGRES
  ? { db: clusterUrl('/proc/colony-no-such/dir', 'colony'), code: 'STORE_UNREACHABLE' }
  : { db: '/proc/colony-no-such/dir/colony.db', code: 'INTERNAL_ERROR' };
