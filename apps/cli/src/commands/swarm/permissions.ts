/**
 * `colony swarm permissions check <agent> '<Tool(input)>' [--json]`: the decision a
 * session would take for that call (allow, ask or deny), the evaluation step and the
 * rule that made it.
 */
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

const check = defineCommand({
  meta: { name: 'check', description: 'Show the permission decision for an agent calling Tool(input).' },
  args: {
    agent: { type: 'positional', description: 'Agent name (or supervisor)', required: true },
    call: { type: 'positional', description: "The call as a rule is written: 'Bash(rm -rf *)'", required: true },
    json: { type: 'boolean', description: 'Print the decision as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { checkPermission } = await import('@swarm/core/runtime');
    const { cwd, home } = controlOptions(args);
    const r = await control(() =>
      checkPermission({ cwd, ...(home ? { home } : {}), agent: args.agent, call: args.call }),
    );
    if (args.json) return printJson(r);
    printLines([`${r.decision}  (step ${r.step}, ${r.rule ? `rule ${r.rule}` : `mode ${r.mode}`})`, r.reason]);
  },
});

export default defineCommand({
  meta: { name: 'permissions', description: 'Check the permission rules of the project (check).' },
  subCommands: { check },
});
