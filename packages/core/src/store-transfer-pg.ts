/**
 * @module store-transfer-pg
 * `colony store export` / `import` over a PostgreSQL URL: @swarm/storage/pg's exportPg
 * and importPg, loaded by dynamic import only here, so a SQLite export or import never
 * loads the PostgreSQL entry or `pg`.
 */
import type { ExportOptions, TransferCounts } from '@swarm/storage';

const load = () => import('@swarm/storage/pg');

/** Exports the PostgreSQL store at `url` line by line to `write`. */
export async function exportStoreUrl(
  url: string,
  write: (line: string) => void,
  options: ExportOptions = {},
): Promise<TransferCounts> {
  return (await load()).exportPg(url, write, options);
}

/** Imports `lines` into the empty PostgreSQL store at `url`, all or nothing. */
export async function importStoreUrl(url: string, lines: Iterable<string>): Promise<TransferCounts> {
  return (await load()).importPg(url, lines);
}
