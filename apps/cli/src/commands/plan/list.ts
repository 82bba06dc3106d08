/**
 * `colony plan list`: the `task_plan_list` tool. One line per plan: slug, status,
 * progress, the sub-tasks claimable next, repository.
 */
import { resolve } from 'node:path';
import type { PlanSummary } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber } from '../../_args';
import { callTool, defined, storeArgs, withExistingColony } from '../../_colony';
import { columns } from '../../_format';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'list', description: 'List published plans, newest first, with the sub-tasks claimable next.' },
  args: {
    'repo-root': { type: 'string', description: 'Only plans of this repository', valueHint: 'path' },
    available: { type: 'boolean', description: 'Only plans with a claimable sub-task', default: false },
    capability: {
      type: 'string',
      description: 'Only plans with a claimable sub-task of this capability_hint',
      valueHint: 'hint',
    },
    limit: { type: 'string', description: 'Most plans to list (default 25, max 100)', valueHint: 'n' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const repoRoot = args['repo-root'];
    const input = defined({
      repo_root: repoRoot === undefined ? undefined : resolve(repoRoot),
      only_with_available_subtasks: args.available || undefined,
      capability_match: args.capability,
      limit: parseWholeNumber(args.limit, '--limit'),
    });
    const plans = await withExistingColony(args, (colony) => callTool<PlanSummary[]>(colony, 'task_plan_list', input));
    if (args.json) return printJson(plans);
    const rows = plans.map((p) => [
      p.plan_slug,
      p.status,
      `${p.subtask_counts.completed}/${p.subtasks.length} completed`,
      p.next_available.length
        ? `next: ${p.next_available.map((s) => `sub-${s.subtask_index}${s.capability_hint ? ` (${s.capability_hint})` : ''}`).join(', ')}`
        : 'next: none',
      p.repo_root,
    ]);
    printLines(rows.length ? columns(rows) : ['no plans']);
  },
});
