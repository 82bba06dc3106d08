/**
 * @module store/pg
 * The PostgreSQL target of `colony store export|import`: `--db postgres://…`, or,
 * without --db or --home, `$COLONY_DATABASE_URL`. @swarm/storage/pg (and `pg`) is
 * loaded only then, so a SQLite export never loads it. URLs are shown with the
 * password masked, in output and in errors.
 */
import type { ExportOptions, TransferCounts } from '@swarm/storage';

/** The PostgreSQL URL a command line names, if any. */
export function pgUrlOf(args: { db?: string | undefined; home?: string | undefined }, env: NodeJS.ProcessEnv) {
  const isPg = (url: string | undefined) => !!url && /^postgres(ql)?:\/\//i.test(url);
  if (args.db !== undefined) return isPg(args.db) ? args.db : undefined;
  const fromEnv = env.COLONY_DATABASE_URL?.trim();
  return args.home === undefined && isPg(fromEnv) ? fromEnv : undefined;
}

const load = () => import('@swarm/storage/pg');

export async function exportPgUrl(
  url: string,
  write: (line: string) => void,
  options: ExportOptions,
): Promise<TransferCounts> {
  return (await load()).exportPg(url, write, options);
}

export async function importPgUrl(url: string, lines: Iterable<string>): Promise<TransferCounts> {
  return (await load()).importPg(url, lines);
}
