/**
 * `colony swarm workflow approve <run-id> [--stage s]`: approves the run's awaiting gate
 * (or the named one), then drives the run on in this process.
 */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { storeArgs } from '../../../_colony';
import { control, controlOptions, repoArg } from '../_session';
import { print, report, runIdArg, stageArg } from './_shared';

export default defineCommand({
  meta: { name: 'approve', description: 'Approve a human-approval gate; the run continues here.' },
  args: { ...runIdArg, ...stageArg, ...jsonArg, ...repoArg, ...storeArgs },
  async run({ args }) {
    const { approveWorkflow } = await import('@swarm/core/runtime');
    const options = { ...controlOptions(args), print: args.json ? () => {} : print };
    const run = await control(() => approveWorkflow(options, String(args['run-id']), args.stage));
    report(run, args.json);
  },
});
