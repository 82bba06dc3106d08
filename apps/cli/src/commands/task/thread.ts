/**
 * `colony task thread`: the `task_thread` tool. Opens the thread for
 * (repo_root, branch) or joins it, registering the session and agent.
 */
import { resolve } from 'node:path';
import type { TaskThreadResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'thread', description: 'Open or join the task thread for a repository and branch.' },
  args: {
    'repo-root': {
      type: 'string',
      description: 'Repository root (default: the current directory; relative paths resolve)',
      valueHint: 'path',
    },
    branch: { type: 'string', description: 'Branch the thread is for', valueHint: 'branch', required: true },
    session: { type: 'string', description: 'Your session id', valueHint: 'id', required: true },
    agent: { type: 'string', description: 'Your agent name (claude, codex, ...)', valueHint: 'name', required: true },
    ide: { type: 'string', description: 'Your IDE (default: inferred from the session id)', valueHint: 'name' },
    title: { type: 'string', description: 'Title for a newly opened thread', valueHint: 'text' },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      repo_root: resolve(args['repo-root'] ?? process.cwd()),
      branch: args.branch,
      session_id: args.session,
      agent: args.agent,
      ide: args.ide,
      title: args.title,
      idempotency_key: args['idempotency-key'],
    });
    const result = await withColony(args, (colony) => callTool<TaskThreadResult>(colony, 'task_thread', input));
    if (args.json) return printJson(result);
    printLines([
      `task #${result.task_id} ${result.created ? 'opened' : 'joined'}: ${result.branch} in ${result.repo_root}`,
      `participants: ${result.participants.map((p) => `${p.agent}:${p.session_id}`).join(', ')}`,
    ]);
  },
});
