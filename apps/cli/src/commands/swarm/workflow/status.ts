/** `colony swarm workflow status [<run-id>] [--json]`: every run of this repository, or one. */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { storeArgs } from '../../../_colony';
import { printJson, printLines } from '../../../_output';
import { control, controlOptions, repoArg } from '../_session';
import { runLine, stageLines } from './_shared';

export default defineCommand({
  meta: { name: 'status', description: 'Status of workflow runs (all of this repository, or one).' },
  args: {
    'run-id': { type: 'positional', description: 'Workflow run id (omit to list all)', required: false },
    ...jsonArg,
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { workflowStatus } = await import('@swarm/core/runtime');
    const id = args['run-id'] ? String(args['run-id']) : undefined;
    const runs = await control(() => workflowStatus(controlOptions(args), id));
    if (args.json) return printJson(id ? runs[0] : runs);
    if (runs.length === 0) return printLines(['no workflow runs']);
    printLines(id ? [runLine(runs[0]!), ...stageLines(runs[0]!, false)] : runs.map(runLine));
  },
});
