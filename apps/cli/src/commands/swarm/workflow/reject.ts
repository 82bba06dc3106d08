/**
 * `colony swarm workflow reject <run-id> [--stage s] --feedback "..."`: rejects the
 * awaiting gate. The stages the gate depends on run again with the feedback (agent
 * prompts get it, commands see $COLONY_WORKFLOW_FEEDBACK), up to the gate again; a gate
 * with nothing to re-run fails the run.
 */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { storeArgs } from '../../../_colony';
import { control, controlOptions, repoArg } from '../_session';
import { print, report, runIdArg, stageArg } from './_shared';

export default defineCommand({
  meta: { name: 'reject', description: 'Reject a gate with feedback; its stages run again with it.' },
  args: {
    ...runIdArg,
    ...stageArg,
    feedback: { type: 'string', description: 'Feedback message', valueHint: 'text' },
    ...jsonArg,
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { rejectWorkflow } = await import('@swarm/core/runtime');
    const options = { ...controlOptions(args), print: args.json ? () => {} : print };
    const run = await control(() => rejectWorkflow(options, String(args['run-id']), args.feedback ?? null, args.stage));
    report(run, args.json);
  },
});
