/**
 * @module colony
 * Flags every command shares (--db, --home) and opening colony from them.
 */
import { type Colony, openColony } from '@swarm/core';

export const storeArgs = {
  db: { type: 'string', description: 'Database file (default $COLONY_HOME/colony.db)', valueHint: 'path' },
  home: { type: 'string', description: 'Data home (default $COLONY_HOME or ~/.colony)', valueHint: 'dir' },
} as const;

export function openFromArgs(args: { db?: string | undefined; home?: string | undefined }): Colony {
  return openColony({
    ...(args.home ? { home: args.home } : {}),
    ...(args.db ? { dbPath: args.db } : {}),
    onWarning: (message) => process.stderr.write(`colony: warning: ${message}\n`),
  });
}
