/**
 * Shared pieces of the session commands (`colony swarm start|stop|status|send|
 * broadcast|logs|clean`): `--repo PATH` (default: the current directory), the store
 * flags, and control errors shown as one line.
 */
import { resolve } from 'node:path';
import { databaseUrlOf } from '@swarm/core/serve';
import type { StoreFlags } from '../../_colony';
import { CliError } from '../../_output';

export const repoArg = {
  repo: { type: 'string', description: 'Repository (default: the current directory)', valueHint: 'path' },
} as const;

export function controlOptions(args: StoreFlags & { repo?: string | undefined }) {
  return {
    cwd: resolve(args.repo ?? '.'),
    ...(args.home ? { home: args.home } : {}),
    // A postgres:// --db, or $COLONY_DATABASE_URL without --db / --home; else the SQLite file.
    ...(databaseUrlOf(args) ? { dbPath: databaseUrlOf(args) } : args.db ? { dbPath: args.db } : {}),
  };
}

/** A refusal from the runtime (no session, a dirty tree, a live session...) is one CLI error line. */
export async function control<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
}
