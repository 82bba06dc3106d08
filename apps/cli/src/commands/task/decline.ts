/**
 * `colony task decline <id>`: the `task_decline_handoff` tool, or `task_decline_relay`
 * when the id is a relay. The sender of a handoff may use it to withdraw it.
 */
import type { DeclineBatonResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg, parseId } from '../../_args';
import { defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { settleBaton } from './_baton';

export default defineCommand({
  meta: { name: 'decline', description: 'Decline a handoff or relay (or withdraw your own handoff), with a reason.' },
  args: {
    id: { type: 'positional', description: 'Handoff or relay observation id', required: true },
    session: {
      type: 'string',
      description: 'Your session id (must have joined the task)',
      valueHint: 'id',
      required: true,
    },
    reason: { type: 'string', description: 'Why, for the sender', valueHint: 'text' },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const id = parseId(String(args.id), 'handoff id');
    const rest = defined({ session_id: args.session, reason: args.reason, idempotency_key: args['idempotency-key'] });
    const { kind, value } = await withColony(args, (colony) =>
      settleBaton<DeclineBatonResult>(colony, 'decline', id, rest),
    );
    if (args.json) return printJson(value);
    printLines([`declined ${kind} #${id} (${value.status})`]);
  },
});
