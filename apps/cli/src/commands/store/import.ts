/**
 * `colony store import [--in FILE] [--json]`: a colony-store export (from stdin or
 * FILE) into the store of --db/--home, which must be new or empty, in one transaction:
 * all rows or none. Search indexes are rebuilt from the rows. Refusals have stable
 * codes (STORE_IMPORT_*, docs/configuration.md) and leave the target as it was. Reports
 * the counts (--json: `{ db_path, schema, rows, tables }`). `--db postgres://…` (or
 * $COLONY_DATABASE_URL) imports into an empty, migrated PostgreSQL store instead
 * (db_path: the URL with its password masked).
 */
import { closeSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import { importStoreFile, importStoreUrl, maskUrl } from '@swarm/core';
import { databaseUrlOf } from '@swarm/core/serve';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { storeArgs } from '../../_colony';
import { CliError, printJson, printLines } from '../../_output';
import { storeChoice } from '../../_store-path';
import { asCliError } from './_errors';
import { fdLines } from './_fd-io';

function openInput(file: string | undefined): number {
  if (file === undefined) return 0;
  try {
    return openSync(file, 'r');
  } catch (error) {
    throw new CliError(`STORE_IMPORT_FORMAT: cannot read ${file}: ${(error as Error).message}`);
  }
}

export default defineCommand({
  meta: { name: 'import', description: 'Load a store export (stdin or --in FILE) into a new or empty store.' },
  args: {
    in: { type: 'string', description: 'Export file to read (default: stdin)', valueHint: 'file' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const url = databaseUrlOf(args);
    const dbPath = url ? maskUrl(url) : storeChoice(args, process.env, homedir()).dbPath;
    const fd = openInput(args.in);
    try {
      const counts = url ? await importStoreUrl(url, fdLines(fd)) : await importStoreFile(dbPath, fdLines(fd));
      if (args.json) printJson({ db_path: dbPath, ...counts });
      else
        printLines([
          `imported ${counts.rows} rows of ${Object.keys(counts.tables).length} tables (schema ${counts.schema}) into ${dbPath}`,
        ]);
    } catch (error) {
      throw asCliError(error, url);
    } finally {
      if (fd !== 0) closeSync(fd);
    }
  },
});
