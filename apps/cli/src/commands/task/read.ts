/**
 * `colony task read <message-id>`: the `task_message_mark_read` tool. Marks a message
 * read and leaves its sender a receipt; read the body itself with `colony show`.
 */
import type { MessageStatusResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseId } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'read', description: 'Mark a message read (its sender sees a receipt).' },
  args: {
    'message-id': { type: 'positional', description: 'Message id (from `task messages`)', required: true },
    session: { type: 'string', description: 'Your session id', valueHint: 'id', required: true },
    task: { type: 'string', description: 'The task the message must be on', valueHint: 'id' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      message_observation_id: parseId(String(args['message-id']), 'message id'),
      session_id: args.session,
      task_id: args.task === undefined ? undefined : parseId(args.task, '--task'),
    });
    const result = await withColony(args, (colony) =>
      callTool<MessageStatusResult>(colony, 'task_message_mark_read', input),
    );
    if (args.json) return printJson(result);
    printLines([`message #${input.message_observation_id}: ${result.status}`]);
  },
});
