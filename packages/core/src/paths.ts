/**
 * @module paths
 * Where colony keeps its data: `$COLONY_HOME` (default `~/.colony`), the store at
 * `<home>/colony.db` unless a db path is given.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const DB_FILE = 'colony.db';

export function resolveHome(home?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(home ?? env.COLONY_HOME ?? join(homedir(), '.colony'));
}

export function resolveDbPath(home: string, dbPath?: string): string {
  if (dbPath === ':memory:') return dbPath;
  return resolve(dbPath ?? join(home, DB_FILE));
}
