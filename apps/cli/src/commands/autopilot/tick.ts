/**
 * `colony autopilot tick`: the `task_autopilot_tick` tool. One decision from the inbox
 * and ready work: the next tool with its args, and how long to sleep. Changes nothing.
 */
import type { AutopilotTickResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { agentArgs, agentInput, jsonArg } from '../../_args';
import { callTool, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'tick', description: 'Print the next tool to call (and its args) from your inbox and ready work.' },
  args: { ...agentArgs, ...jsonArg, ...storeArgs },
  async run({ args }) {
    const tick = await withColony(args, (colony) =>
      callTool<AutopilotTickResult>(colony, 'task_autopilot_tick', agentInput(args)),
    );
    if (args.json) return printJson(tick);
    const s = tick.signals;
    printLines([
      `decision: ${tick.decision}`,
      `reason: ${tick.reason}`,
      `next: ${tick.next_tool === null ? 'nothing' : `${tick.next_tool} ${JSON.stringify(tick.next_args)}`}`,
      `then: ${tick.next_action}`,
      `wake in: ${tick.suggested_wake_seconds}s`,
      `signals: ${s.pending_handoff_count} handoff(s), ${s.quota_pending_claim_count} relay(s), ${s.unread_message_count} unread (${s.blocking_message_count} blocking), ${s.ready_subtask_count} ready, ${s.stalled_lane_count} stalled lane(s) (${s.actionable_stalled_lane_count} actionable)`,
    ]);
  },
});
