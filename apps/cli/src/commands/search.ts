/**
 * `colony search <query...>`: the `search` tool. Compact hits only; hydrate the ids
 * you want with `colony show`.
 */
import type { CompactSearchHit } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber, restPositionals } from '../_args';
import { callTool, defined, storeArgs, withExistingColony } from '../_colony';
import { oneLine } from '../_format';
import { printJson, printLines } from '../_output';

export default defineCommand({
  meta: {
    name: 'search',
    description: 'Search memory (BM25); prints compact hits. Read full bodies with `colony show <ids>`.',
  },
  args: {
    query: { type: 'positional', description: 'Search terms (all words are joined into one query)', required: true },
    limit: { type: 'string', description: 'Most hits to return (default 10, max 50)', valueHint: 'n' },
    kind: { type: 'string', description: 'Only observations of this kind (note, decision, ...)', valueHint: 'kind' },
    'task-id': { type: 'string', description: 'Only observations on this task', valueHint: 'id' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      query: restPositionals(args).join(' '),
      limit: parseWholeNumber(args.limit, '--limit'),
      kind: args.kind,
      task_id: parseWholeNumber(args['task-id'], '--task-id'),
    });
    const hits = await withExistingColony(args, (colony) => callTool<CompactSearchHit[]>(colony, 'search', input));
    if (args.json) return printJson(hits);
    if (hits.length === 0) return printLines([`no hits for "${input.query}"`]);
    printLines(
      hits.map(
        (h) => `#${h.id} [${h.kind}] ${oneLine(h.snippet)}  (score ${score(h.score)}, task ${h.task_id ?? '-'})`,
      ),
    );
  },
});

/** Three significant digits: BM25 scores of a small store can be tiny. */
function score(value: number): string {
  return String(Number(value.toPrecision(3)));
}
