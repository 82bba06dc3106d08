/**
 * `colony swarm workflow retry <run-id> [--stage s]`: failed, rejected, cancelled or
 * interrupted stages (or the named one) run again; processes an interrupted driver left
 * are killed first. The run is driven here.
 */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { storeArgs } from '../../../_colony';
import { control, controlOptions, repoArg } from '../_session';
import { print, report, runIdArg, stageArg } from './_shared';

export default defineCommand({
  meta: { name: 'retry', description: 'Retry the failed or interrupted stages of a run (or one stage).' },
  args: { ...runIdArg, ...stageArg, ...jsonArg, ...repoArg, ...storeArgs },
  async run({ args }) {
    const { retryWorkflow } = await import('@swarm/core/runtime');
    const options = { ...controlOptions(args), print: args.json ? () => {} : print };
    const run = await control(() => retryWorkflow(options, String(args['run-id']), args.stage));
    report(run, args.json);
  },
});
