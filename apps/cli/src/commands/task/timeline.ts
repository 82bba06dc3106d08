/**
 * `colony task timeline <task-id>`: the `task_timeline` tool. Observation ids on a
 * thread, newest first, without bodies; read them with `colony show`.
 */
import type { TaskTimelineEntry } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseId, parseWholeNumber } from '../../_args';
import { callTool, defined, storeArgs, withExistingColony } from '../../_colony';
import { columns, iso } from '../../_format';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: {
    name: 'timeline',
    description: "List a task thread's observations, newest first (ids only; read with `show`).",
  },
  args: {
    'task-id': { type: 'positional', description: 'Task id', required: true },
    limit: { type: 'string', description: 'Most entries to list (default 50, max 200)', valueHint: 'n' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      task_id: parseId(String(args['task-id']), 'task id'),
      limit: parseWholeNumber(args.limit, '--limit'),
    });
    const entries = await withExistingColony(args, (colony) =>
      callTool<TaskTimelineEntry[]>(colony, 'task_timeline', input),
    );
    if (args.json) return printJson(entries);
    if (entries.length === 0) return printLines([`task #${input.task_id} has no observations`]);
    printLines(
      columns(
        entries.map((e) => [
          `#${e.id}`,
          e.kind,
          e.session_id,
          iso(e.ts),
          e.reply_to === null ? '' : `reply to #${e.reply_to}`,
        ]),
      ),
    );
  },
});
