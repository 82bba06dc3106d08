/**
 * The store the contract tests run on: SQLite files (the default), or PostgreSQL under
 * `COLONY_TEST_DB=postgres` (the `mcp-server-pg` project). A test names its stores by
 * file path as ever; on PostgreSQL each path stands for a database of its own in the
 * run's cluster (the same path, the same database), so servers started on one path
 * share one store, as on SQLite. Each database starts as a copy of the migrated template
 * (_pg-global.ts), as a fresh one would be after a server's first start.
 */
import { type Colony, connectColony, type OpenColonyOptions } from '@swarm/core';
import { type ColonyStore, openStore } from '@swarm/storage';
import { inject } from 'vitest';
import { createDatabase } from '../../../test/support/pg-cluster.mjs';
import type {} from './_pg-global';

export const BACKEND: 'sqlite' | 'postgres' = process.env.COLONY_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const ON_POSTGRES = BACKEND === 'postgres';

const databases = new Map<string, string>();
let fromTemplate = true;

/**
 * This test file's stores start as empty databases, as a fresh PostgreSQL store really
 * does, instead of copies of the migrated template: for suites that watch whether (and
 * when) a server opens its store (`_store-probe.ts` calls it), where a copy's tables
 * would look opened from the start.
 */
export function startStoresEmpty(): void {
  fromTemplate = false;
}

/** What a server's `--db` gets for the store at `path`: the path, or its database's URL. */
export function dbFor(path: string): string {
  if (!ON_POSTGRES) return path;
  let url = databases.get(path);
  if (!url) {
    const template = fromTemplate ? inject('pgTemplate') : undefined;
    url = createDatabase(inject('pgClusterDir'), `t_${process.pid}_${databases.size + 1}`, template);
    databases.set(path, url);
  }
  return url;
}

/** The store at `path` opened in the test process, on the backend under test. */
export async function openTestStore(path: string): Promise<ColonyStore> {
  if (!ON_POSTGRES) return openStore({ path });
  const { openPgStore } = await import('@swarm/storage/pg');
  return openPgStore(dbFor(path));
}

/** colony opened in the test process on the store at `options.dbPath`, on the backend under test. */
export function openTestColony(options: OpenColonyOptions & { readonly dbPath: string }): Promise<Colony> {
  return connectColony({ ...options, dbPath: dbFor(options.dbPath) });
}
