/** `colony swarm workflow show <run-id>`: a run in detail, with each stage's output. */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { storeArgs } from '../../../_colony';
import { printJson, printLines } from '../../../_output';
import { control, controlOptions, repoArg } from '../_session';
import { runIdArg, runLine, stageLines } from './_shared';

export default defineCommand({
  meta: { name: 'show', description: 'Show a workflow run in detail, with stage outputs.' },
  args: { ...runIdArg, ...jsonArg, ...repoArg, ...storeArgs },
  async run({ args }) {
    const { workflowStatus } = await import('@swarm/core/runtime');
    const [run] = await control(() => workflowStatus(controlOptions(args), String(args['run-id'])));
    if (args.json) return printJson(run);
    const inputs = Object.entries(run!.inputs).map(([k, v]) => `${k}=${v}`);
    printLines([
      runLine(run!),
      `  inputs: ${inputs.join(' ') || 'none'}`,
      ...(run!.feedback ? [`  feedback: ${run!.feedback}`] : []),
      ...stageLines(run!, true),
    ]);
  },
});
