/**
 * `colony task claim <task-id> <file>`: the `task_claim_file` tool. Claims a file
 * before editing so other agents see the overlap; a warning, never a lock.
 */
import type { ClaimFileResult, ClaimOverlap } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg, parseId, sessionArg } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'claim', description: 'Claim a file of a task before editing it (a warning to others, not a lock).' },
  args: {
    'task-id': { type: 'positional', description: 'Task id', required: true },
    file: {
      type: 'positional',
      description: "File path, relative to the task's repo root or absolute",
      required: true,
    },
    ...sessionArg,
    note: { type: 'string', description: 'What you are about to change', valueHint: 'text' },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      task_id: parseId(String(args['task-id']), 'task id'),
      session_id: args.session,
      file_path: String(args.file),
      note: args.note,
      idempotency_key: args['idempotency-key'],
    });
    const result = await withColony(args, (colony) => callTool<ClaimFileResult>(colony, 'task_claim_file', input));
    if (args.json) return printJson(result);
    const who = (list: readonly ClaimOverlap[]) =>
      list.map((o) => `${o.session_id} (${o.agent}, ${o.age_class})`).join(', ');
    printLines([
      `claimed ${input.file_path} on task #${input.task_id} (#${result.observation_id})`,
      ...(result.warning ? [`warning: ${result.warning}`] : []),
      ...(result.weak_stale ? [`stale or weak claims (history, not ownership): ${who(result.weak_stale)}`] : []),
    ]);
  },
});
