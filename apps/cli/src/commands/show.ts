/**
 * `colony show <ids...>`: the `get_observations` tool. Full bodies (or the compressed
 * form with --compressed), in the order the ids were given.
 */
import type { ObservationBody } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseId, restPositionals } from '../_args';
import { callTool, storeArgs, withExistingColony } from '../_colony';
import { iso } from '../_format';
import { printJson, printLines } from '../_output';

export default defineCommand({
  meta: {
    name: 'show',
    description: 'Print observations in full by id (as `search` and `task timeline` list them).',
  },
  args: {
    ids: { type: 'positional', description: 'Observation ids, e.g. `12 34` or `#12,#34`', required: true },
    compressed: {
      type: 'boolean',
      description: 'Return the compressed form (fewer tokens; code, paths and numbers kept)',
      default: false,
    },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const ids = restPositionals(args)
      .flatMap((raw) => raw.split(','))
      .filter((raw) => raw !== '')
      .map((raw) => parseId(raw, 'observation id'));
    const input = { ids, expand: !args.compressed };
    const observations = await withExistingColony(args, (colony) =>
      callTool<ObservationBody[]>(colony, 'get_observations', input),
    );
    if (args.json) return printJson(observations);
    printLines(
      observations.flatMap((o, i) => [
        ...(i > 0 ? [''] : []),
        `#${o.id} ${o.kind} ${o.session_id} ${iso(o.ts)}${o.task_id === null ? '' : ` task ${o.task_id}`}`,
        o.content,
      ]),
    );
  },
});
