/**
 * @module store/pg
 * The PostgreSQL target of `colony store export|import`: `--db postgres://…`, or,
 * without --db or --home, `$COLONY_DATABASE_URL` (@swarm/core's exportStoreUrl /
 * importStoreUrl load the PostgreSQL code only then). URLs are shown with the
 * password masked, in output and in errors.
 */

/** The PostgreSQL URL a command line names, if any. */
export function pgUrlOf(args: { db?: string | undefined; home?: string | undefined }, env: NodeJS.ProcessEnv) {
  const isPg = (url: string | undefined) => !!url && /^postgres(ql)?:\/\//i.test(url);
  if (args.db !== undefined) return isPg(args.db) ? args.db : undefined;
  const fromEnv = env.COLONY_DATABASE_URL?.trim();
  return args.home === undefined && isPg(fromEnv) ? fromEnv : undefined;
}
