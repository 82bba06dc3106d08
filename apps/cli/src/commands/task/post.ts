/**
 * `colony task post <task-id> <content...>`: the `task_post` tool. Shared thread
 * state: notes, decisions, questions, blockers and warnings for other agents.
 */
import { TASK_POST_KINDS, type TaskPostResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseId, restPositionals, usageError } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'post', description: 'Post a note, decision, question, blocker or warning to a task thread.' },
  args: {
    'task-id': { type: 'positional', description: 'Task id (from `task thread` or `task list`)', required: true },
    content: {
      type: 'positional',
      description: 'What to post (all remaining words; quote it, or put it after `--`)',
      required: true,
    },
    session: {
      type: 'string',
      description: 'Your session id (must have joined the thread)',
      valueHint: 'id',
      required: true,
    },
    kind: {
      type: 'string',
      description: `Post kind: ${TASK_POST_KINDS.join(', ')}`,
      valueHint: 'kind',
      default: 'note',
    },
    'reply-to': { type: 'string', description: 'Observation id on the same task this answers', valueHint: 'id' },
    'idempotency-key': {
      type: 'string',
      valueHint: 'key',
      description: 'Retry key: a repeat with the same key returns the first result',
    },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const [rawTask = '', ...words] = restPositionals(args);
    const replyTo = args['reply-to'];
    if (words.length === 0) throw usageError('missing CONTENT: what to post');
    const input = defined({
      task_id: parseId(rawTask, 'task id'),
      session_id: args.session,
      kind: args.kind,
      content: words.join(' '),
      reply_to: replyTo === undefined ? undefined : parseId(replyTo, '--reply-to'),
      idempotency_key: args['idempotency-key'],
    });
    const result = await withColony(args, (colony) => callTool<TaskPostResult>(colony, 'task_post', input));
    if (args.json) return printJson(result);
    printLines([
      `posted #${result.id} (${input.kind}) to task #${input.task_id}`,
      ...(result.recommendation ? [`recommendation: ${result.recommendation.reason}`] : []),
      `hint: ${result.hint}`,
    ]);
  },
});
