/**
 * @module store-args
 * The --db and --home flags every command shares. Apart from `_colony.ts` so that
 * `colony mcp` can declare them without loading colony before its first tool call.
 */
export const storeArgs = {
  db: {
    type: 'string',
    description:
      'Database file (default $COLONY_HOME/colony.db), or a postgres:// URL (default $COLONY_DATABASE_URL when neither --db nor --home is given)',
    valueHint: 'path|url',
  },
  home: { type: 'string', description: 'Data home (default $COLONY_HOME or ~/.colony)', valueHint: 'dir' },
} as const;

export interface StoreFlags {
  readonly db?: string | undefined;
  readonly home?: string | undefined;
}
