/** `colony swarm workflow list`: the definitions under `.colony/workflows/`. */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { printJson, printLines } from '../../../_output';
import { control, controlOptions, repoArg } from '../_session';

export default defineCommand({
  meta: { name: 'list', description: 'List the workflow definitions of this repository.' },
  args: { ...jsonArg, ...repoArg },
  async run({ args }) {
    const { listWorkflows } = await import('@swarm/core/runtime');
    const list = await control(() => listWorkflows(controlOptions(args)));
    if (args.json) return printJson(list);
    if (list.length === 0) return printLines(['no workflows (.colony/workflows/<name>.yaml)']);
    printLines(
      list.map((w) =>
        w.valid
          ? `${w.name}  ${w.stages} stages${w.description ? `  ${w.description}` : ''}`
          : `${w.name}  invalid: ${w.problems[0]}`,
      ),
    );
  },
});
