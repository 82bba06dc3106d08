/**
 * `colony task post <task-id> <content...>`: the `task_post` tool. Shared thread
 * state: notes, decisions, questions, blockers and warnings for other agents.
 */
import { TASK_POST_KINDS, type TaskPostResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg, parseId, taskContentArgs, taskIdAndText } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'post', description: 'Post a note, decision, question, blocker or warning to a task thread.' },
  args: {
    ...taskContentArgs('What to post'),
    kind: {
      type: 'string',
      description: `Post kind: ${TASK_POST_KINDS.join(', ')}`,
      valueHint: 'kind',
      default: 'note',
    },
    'reply-to': { type: 'string', description: 'Observation id on the same task this answers', valueHint: 'id' },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { taskId, text } = taskIdAndText(args, 'what to post');
    const replyTo = args['reply-to'];
    const input = defined({
      task_id: taskId,
      session_id: args.session,
      kind: args.kind,
      content: text,
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
