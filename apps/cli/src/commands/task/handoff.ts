/**
 * `colony task handoff <task-id>`: the `task_hand_off` tool. Hands work and file
 * claims to another agent, who accepts (`colony task accept`) or declines it.
 */
import { type HandOffResult, TARGET_AGENTS } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg, parseId, parseWholeNumber, repeatedFlag, sessionArg } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'handoff', description: 'Hand work and file claims on a task to another agent.' },
  args: {
    'task-id': { type: 'positional', description: 'Task id', required: true },
    ...sessionArg,
    'to-agent': {
      type: 'string',
      description: `Who takes it: ${TARGET_AGENTS.join(', ')}`,
      valueHint: 'agent',
      required: true,
    },
    'to-session': { type: 'string', description: 'Only this session may accept', valueHint: 'id' },
    summary: { type: 'string', description: 'What is done and what is left', valueHint: 'text', required: true },
    'next-steps': { type: 'string', description: 'A next step (repeat the flag for more)', valueHint: 'text' },
    blockers: { type: 'string', description: 'A blocker (repeat the flag for more)', valueHint: 'text' },
    'transferred-files': {
      type: 'string',
      description:
        "A file whose claim moves to the acceptor, relative to the task's repo root or absolute (repeatable)",
      valueHint: 'path',
    },
    'expires-in-minutes': {
      type: 'string',
      description: 'Pending for N minutes (default 120, max 1440)',
      valueHint: 'n',
    },
    agent: { type: 'string', description: 'Your agent name (default: the one you joined as)', valueHint: 'name' },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args, rawArgs }) {
    const input = defined({
      task_id: parseId(String(args['task-id']), 'task id'),
      session_id: args.session,
      agent: args.agent,
      to_agent: args['to-agent'],
      to_session_id: args['to-session'],
      summary: args.summary,
      next_steps: repeatedFlag(rawArgs, 'next-steps'),
      blockers: repeatedFlag(rawArgs, 'blockers'),
      transferred_files: repeatedFlag(rawArgs, 'transferred-files'),
      expires_in_minutes: parseWholeNumber(args['expires-in-minutes'], '--expires-in-minutes'),
      idempotency_key: args['idempotency-key'],
    });
    const result = await withColony(args, (colony) => callTool<HandOffResult>(colony, 'task_hand_off', input));
    if (args.json) return printJson(result);
    const to = args['to-session'] ? `${input.to_agent} (session ${args['to-session']})` : input.to_agent;
    printLines([
      `handoff #${result.handoff_observation_id} ${result.status} for ${to} on task #${input.task_id}`,
      `accept with: colony task accept ${result.handoff_observation_id} --session <id>`,
    ]);
  },
});
