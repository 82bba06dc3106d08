/**
 * `colony task ready`: the `task_ready_for_agent` tool. Ready plan sub-tasks ranked for
 * an agent, one line each; by default the unambiguous top pick is claimed in the same
 * call (--no-auto-claim to only look).
 */
import type { ReadyForAgentResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { agentArgs, agentInput, idempotencyArg, jsonArg, parseWholeNumber } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { columns } from '../../_format';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'ready', description: 'Rank claimable plan sub-tasks for an agent and claim the top one.' },
  args: {
    ...agentArgs,
    limit: { type: 'string', description: 'Most sub-tasks to list (default 5, max 20)', valueHint: 'n' },
    'auto-claim': {
      type: 'boolean',
      description: 'Claim the unambiguous top pick now (--no-auto-claim only lists)',
      default: true,
    },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      ...agentInput(args),
      limit: parseWholeNumber(args.limit, '--limit'),
      auto_claim: args['auto-claim'],
      idempotency_key: args['idempotency-key'],
    });
    const result = await withColony(args, (colony) =>
      callTool<ReadyForAgentResult>(colony, 'task_ready_for_agent', input),
    );
    if (args.json) return printJson(result);
    const rows = result.ready.map((e) => [
      `${e.plan_slug}/sub-${e.subtask_index}`,
      e.title,
      `${e.capability_hint ?? 'any'}, ${e.wave_name.toLowerCase()}`,
      `priority ${e.priority}`,
      `fit ${e.fit_score}`,
      e.reason,
    ]);
    const claimed = result.auto_claimed;
    printLines([
      ...(rows.length
        ? [`ready: ${result.ready.length} shown, ${result.total_available} claimable`, ...columns(rows)]
        : [result.empty_state ?? 'nothing ready']),
      ...(claimed?.ok
        ? [
            `auto-claimed ${claimed.plan_slug}/sub-${claimed.subtask_index}: task #${claimed.task_id}, branch ${claimed.branch}`,
          ]
        : []),
      ...(claimed && !claimed.ok ? [`auto-claim failed: ${claimed.code}: ${claimed.error}`] : []),
      `next: ${result.next_action}`,
    ]);
  },
});
