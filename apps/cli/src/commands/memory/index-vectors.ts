/**
 * `colony memory index`: embeds every observation that has no vector for the current
 * embedder yet (what the MCP server does by itself when idle), so hybrid search and
 * task_suggest_approach have them now. Safe to repeat: rows with a vector are skipped.
 * Not a tool call: it runs the library's `colony.vectors.backfill()`, like `hook run`.
 */
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { storeArgs, withColony } from '../../_colony';
import { columns } from '../../_format';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'index', description: 'Embed observations that have no search vector yet (safe to repeat).' },
  args: { ...jsonArg, ...storeArgs },
  async run({ args }) {
    const started = performance.now();
    const result = await withColony(args, (colony) => colony.vectors.backfill());
    const seconds = (performance.now() - started) / 1000;
    if (args.json) return printJson({ ...result, seconds: Math.round(seconds * 100) / 100 });
    printLines(
      columns([
        ['embedder', result.embedder_id ?? `off (${result.disabled_reason})`],
        ['embedded now', String(result.embedded)],
        ['vectors', `${result.vectors} of ${result.observations} observations`],
        ['took', `${seconds.toFixed(2)} s`],
      ]),
    );
  },
});
