/**
 * `colony store export [--out FILE] [--no-timestamp] [--json]`: the whole store as
 * colony-store JSON lines (docs/configuration.md), from one consistent snapshot, streamed
 * row by row to stdout or to FILE. FILE is written beside itself and renamed when
 * complete, so a failed export never leaves a partial file under that name. With
 * --out it reports the counts (--json: `{ out, schema, rows, tables }`).
 * `--no-timestamp` leaves `exported_at` null, so two exports of one store compare equal.
 * `--db postgres://…` (or $COLONY_DATABASE_URL) exports a PostgreSQL store: the same bytes
 * as the SQLite export of the same data.
 */
import { closeSync, openSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { exportStoreFile, exportStoreUrl } from '@swarm/core';
import { databaseUrlOf } from '@swarm/core/serve';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { assertStoreExists, storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { storeChoice } from '../../_store-path';
import { asCliError } from './_errors';
import { fdWriter } from './_fd-io';

export default defineCommand({
  meta: { name: 'export', description: 'Write the whole store as JSON lines to stdout or --out FILE.' },
  args: {
    out: { type: 'string', description: 'File to write (default: stdout)', valueHint: 'file' },
    timestamp: { type: 'boolean', description: 'Record the export time (--no-timestamp: null)', default: true },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const url = databaseUrlOf(args);
    if (!url) assertStoreExists(args);
    const exportedAt = args.timestamp ? new Date().toISOString() : null;
    const out = args.out === undefined ? undefined : resolve(args.out);
    const partial = out && `${out}.partial-${process.pid}`;
    const fd = partial ? openSync(partial, 'w') : 1;
    try {
      const writer = fdWriter(fd);
      const counts = url
        ? await exportStoreUrl(url, writer.write, { exportedAt })
        : await exportStoreFile(storeChoice(args, process.env, homedir()).dbPath, writer.write, { exportedAt });
      writer.flush();
      if (!partial || !out) return;
      closeSync(fd);
      renameSync(partial, out);
      if (args.json) printJson({ out, ...counts });
      else
        printLines([
          `exported ${counts.rows} rows of ${Object.keys(counts.tables).length} tables (schema ${counts.schema}) to ${out}`,
        ]);
    } catch (error) {
      if (partial) {
        try {
          closeSync(fd);
        } catch {}
        rmSync(partial, { force: true });
      }
      throw asCliError(error, url);
    }
  },
});
