/**
 * `colony task send <task-id> <content...>`: the `task_message` tool. A directed or
 * broadcast message to other agents on a thread, or a reply with --reply-to.
 */
import { MESSAGE_TARGETS, MESSAGE_URGENCIES, type MessageSent } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg, parseId, parseWholeNumber, taskContentArgs, taskIdAndText } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'send', description: 'Send a message to another agent on a task thread (or reply to one).' },
  args: {
    ...taskContentArgs('The message'),
    agent: { type: 'string', description: 'Your agent name (claude, codex, ...)', valueHint: 'name', required: true },
    to: {
      type: 'string',
      description: `Recipient agent: ${MESSAGE_TARGETS.join(', ')} (default any)`,
      valueHint: 'agent',
    },
    'to-session': { type: 'string', description: 'Recipient session id', valueHint: 'id' },
    urgency: { type: 'string', description: `${MESSAGE_URGENCIES.join(', ')} (default fyi)`, valueHint: 'level' },
    'reply-to': { type: 'string', description: 'Message id on the same task this answers', valueHint: 'id' },
    'expires-in': { type: 'string', description: 'Minutes until an unread message expires', valueHint: 'minutes' },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { taskId, text } = taskIdAndText(args, 'the message to send');
    const replyTo = args['reply-to'];
    const input = defined({
      task_id: taskId,
      session_id: args.session,
      agent: args.agent,
      content: text,
      to_agent: args.to,
      to_session_id: args['to-session'],
      urgency: args.urgency,
      reply_to: replyTo === undefined ? undefined : parseId(replyTo, '--reply-to'),
      expires_in_minutes: parseWholeNumber(args['expires-in'], '--expires-in'),
      idempotency_key: args['idempotency-key'],
    });
    const result = await withColony(args, (colony) => callTool<MessageSent>(colony, 'task_message', input));
    if (args.json) return printJson(result);
    const to = args['to-session'] ?? args.to ?? 'any';
    printLines([
      `sent #${result.message_observation_id} to ${to} (${args.urgency ?? 'fyi'}) on task #${input.task_id}`,
    ]);
  },
});
