/** `colony swarm send <agent> <message> [--urgent]`: a message from the operator (urgent interrupts). */
import { defineCommand } from 'citty';
import { restPositionals, usageError } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'send', description: 'Send a message to an agent of the session (--urgent interrupts it).' },
  args: {
    agent: { type: 'positional', description: 'Agent name', required: true },
    urgent: { type: 'boolean', description: 'Interrupt the agent now' },
    json: { type: 'boolean', description: 'Print the result as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const body = restPositionals(args, 1).join(' ');
    if (!body) throw usageError('give the message after the agent name');
    const { sendToAgents } = await import('@swarm/core/runtime');
    const result = await control(() =>
      sendToAgents({ ...controlOptions(args), to: String(args.agent), body, urgent: args.urgent === true }),
    );
    if (args.json) printJson(result);
    else printLines([`sent to ${result.sent_to.join(', ')}`]);
  },
});
