/**
 * `colony task relay <task-id>`: the `task_relay` tool. Passes unfinished work on when
 * the sender may be gone (quota, rate limit, turn cap), with a worktree recipe.
 */
import { RELAY_REASONS, type RelayResult, TARGET_AGENTS } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg, parseId, parseWholeNumber, sessionArg } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'relay', description: 'Relay unfinished work on a task when you may be gone (quota, rate limit...).' },
  args: {
    'task-id': { type: 'positional', description: 'Task id', required: true },
    ...sessionArg,
    reason: { type: 'string', description: `Why: ${RELAY_REASONS.join(', ')}`, valueHint: 'reason', required: true },
    'one-line': {
      type: 'string',
      description: 'Where the work stands, in one line',
      valueHint: 'text',
      required: true,
    },
    'base-branch': { type: 'string', description: 'Branch the work started from', valueHint: 'branch', required: true },
    'to-agent': {
      type: 'string',
      description: `Who takes it: ${TARGET_AGENTS.join(', ')} (default any)`,
      valueHint: 'agent',
    },
    'fetch-files-at': { type: 'string', description: 'Commit or ref holding the work so far', valueHint: 'ref' },
    'expires-in-minutes': {
      type: 'string',
      description: 'Pending for N minutes (default 60, max 1440)',
      valueHint: 'n',
    },
    agent: { type: 'string', description: 'Your agent name (default: the one you joined as)', valueHint: 'name' },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      task_id: parseId(String(args['task-id']), 'task id'),
      session_id: args.session,
      agent: args.agent,
      reason: args.reason,
      one_line: args['one-line'],
      base_branch: args['base-branch'],
      to_agent: args['to-agent'],
      fetch_files_at: args['fetch-files-at'],
      expires_in_minutes: parseWholeNumber(args['expires-in-minutes'], '--expires-in-minutes'),
      idempotency_key: args['idempotency-key'],
    });
    const result = await withColony(args, (colony) => callTool<RelayResult>(colony, 'task_relay', input));
    if (args.json) return printJson(result);
    printLines([
      `relay #${result.relay_observation_id} ${result.status} for ${input.to_agent ?? 'any'} on task #${input.task_id}`,
      ...(result.warning ? [`warning: ${result.warning}`] : []),
      `recipe: colony show ${result.relay_observation_id}`,
    ]);
  },
});
