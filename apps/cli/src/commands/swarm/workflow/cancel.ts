/** `colony swarm workflow cancel <run-id>`: cancels a run, killing its running stage's processes. */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { storeArgs } from '../../../_colony';
import { printJson, printLines } from '../../../_output';
import { control, controlOptions, repoArg } from '../_session';
import { print, runIdArg, runLine } from './_shared';

export default defineCommand({
  meta: { name: 'cancel', description: 'Cancel a workflow run.' },
  args: { ...runIdArg, ...jsonArg, ...repoArg, ...storeArgs },
  async run({ args }) {
    const { cancelWorkflow } = await import('@swarm/core/runtime');
    const run = await control(() => cancelWorkflow({ ...controlOptions(args), print }, String(args['run-id'])));
    if (args.json) return printJson(run);
    printLines([runLine(run)]);
  },
});
