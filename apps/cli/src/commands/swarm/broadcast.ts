/** `colony swarm broadcast <message> [--urgent]`: the operator's message to every agent. */
import { defineCommand } from 'citty';
import { restPositionals, usageError } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'broadcast', description: 'Send a message to every agent of the session.' },
  args: {
    urgent: { type: 'boolean', description: 'Interrupt the agents now' },
    json: { type: 'boolean', description: 'Print the result as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const body = restPositionals(args).join(' ');
    if (!body) throw usageError('give the message');
    const { sendToAgents } = await import('@swarm/core/runtime');
    const result = await control(() =>
      sendToAgents({ ...controlOptions(args), to: null, body, urgent: args.urgent === true }),
    );
    if (args.json) printJson(result);
    else printLines([`sent to ${result.sent_to.join(', ')}`]);
  },
});
