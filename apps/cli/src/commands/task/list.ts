/**
 * `colony task list`: the `task_list` tool. Inventory for browsing; the tool's
 * coordination_warning is printed after the list, as agents see it.
 */
import { resolve } from 'node:path';
import type { TaskListResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber } from '../../_args';
import { callTool, defined, storeArgs, withExistingColony } from '../../_colony';
import { columns, iso } from '../../_format';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'list', description: 'List task threads, most recently updated first (inventory, not a work picker).' },
  args: {
    limit: { type: 'string', description: 'Most tasks to list (default 50, max 200)', valueHint: 'n' },
    'repo-root': {
      type: 'string',
      description: 'Only tasks of this repository (relative paths resolve)',
      valueHint: 'path',
    },
    branch: { type: 'string', description: 'Only tasks on this branch', valueHint: 'branch' },
    session: {
      type: 'string',
      description: 'The session asking (tracks browsing warnings per session)',
      valueHint: 'id',
    },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const repoRoot = args['repo-root'];
    const input = defined({
      limit: parseWholeNumber(args.limit, '--limit'),
      repo_root: repoRoot === undefined ? undefined : resolve(repoRoot),
      branch: args.branch,
      session_id: args.session,
    });
    const result = await withExistingColony(args, (colony) => callTool<TaskListResult>(colony, 'task_list', input));
    if (args.json) return printJson(result);
    const rows = result.tasks.map((t) => [
      `#${t.id}`,
      t.status,
      t.branch,
      t.repo_root,
      iso(t.updated_at),
      t.participants.map((p) => `${p.agent}:${p.session_id}`).join(', '),
    ]);
    printLines([
      ...(rows.length ? columns(rows) : ['no tasks']),
      ...(result.coordination_warning ? [`warning: ${result.coordination_warning}`] : []),
    ]);
  },
});
