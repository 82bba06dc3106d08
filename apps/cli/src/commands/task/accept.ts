/**
 * `colony task accept <id>`: the `task_accept_handoff` tool, or `task_accept_relay`
 * when the id is a relay. The baton's file claims become the accepting session's.
 */
import type { AcceptBatonResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg, parseId } from '../../_args';
import { defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { settleBaton } from './_baton';

export default defineCommand({
  meta: { name: 'accept', description: 'Accept a handoff or relay addressed to you; its file claims become yours.' },
  args: {
    id: { type: 'positional', description: 'Handoff or relay observation id', required: true },
    session: {
      type: 'string',
      description: 'Your session id (must have joined the task)',
      valueHint: 'id',
      required: true,
    },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const id = parseId(String(args.id), 'handoff id');
    const rest = defined({ session_id: args.session, idempotency_key: args['idempotency-key'] });
    const { kind, value } = await withColony(args, (colony) =>
      settleBaton<AcceptBatonResult>(colony, 'accept', id, rest),
    );
    if (args.json) return printJson(value);
    const files = value.claimed_files.length === 0 ? 'none' : value.claimed_files.join(', ');
    printLines([`accepted ${kind} #${id} on task #${value.task_id}`, `claimed: ${files}`]);
  },
});
