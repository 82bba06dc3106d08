/**
 * `colony swarm workflow validate <name>`: parses and checks a definition; every
 * problem is printed with seed 003's message, and the command exits 1.
 */
import { defineCommand } from 'citty';
import { jsonArg } from '../../../_args';
import { printJson, printLines } from '../../../_output';
import { control, controlOptions, repoArg } from '../_session';

export default defineCommand({
  meta: { name: 'validate', description: 'Validate a workflow definition.' },
  args: { name: { type: 'positional', description: 'Workflow name', required: true }, ...jsonArg, ...repoArg },
  async run({ args }) {
    const { validateWorkflowByName } = await import('@swarm/core/runtime');
    const loaded = await control(() => validateWorkflowByName(controlOptions(args), String(args.name)));
    if (args.json) printJson(loaded.ok ? { ok: true, path: loaded.path, definition: loaded.definition } : loaded);
    else if (loaded.ok) printLines([`${loaded.definition.name}: valid (${loaded.definition.stages.length} stages)`]);
    else for (const p of loaded.problems) process.stderr.write(`colony: ${p.message}\n`);
    if (!loaded.ok) process.exitCode = 1;
  },
});
