/**
 * `colony swarm workflow resume <run-id>`: drives a pending run in this process (what
 * `run --detach` starts in the background).
 */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { storeArgs } from '../../../_colony';
import { control, controlOptions, repoArg } from '../_session';
import { print, report, runIdArg } from './_shared';

export default defineCommand({
  meta: { name: 'resume', description: 'Drive a pending workflow run in this process.' },
  args: { ...runIdArg, ...jsonArg, ...repoArg, ...storeArgs },
  async run({ args }) {
    const { resumeWorkflow } = await import('@swarm/core/runtime');
    const options = { ...controlOptions(args), print: args.json ? () => {} : print };
    report(await control(() => resumeWorkflow(options, String(args['run-id']))), args.json);
  },
});
