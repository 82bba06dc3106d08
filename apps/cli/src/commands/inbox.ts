/**
 * `colony inbox`: the `attention_inbox` tool. What needs a session now: the counts and
 * next action first, then one line per listed entry (handoffs, wakes, messages,
 * blockers, stalled lanes, fresh claims, hot files) and the stale-claim summary.
 * Bodies are read with `colony show <id>`. Changes nothing.
 */
import { type AttentionInboxResult, type ExpandedInbox, expandInbox } from '@swarm/tools';
import { defineCommand } from 'citty';
import { agentArgs, agentInput, jsonArg } from '../_args';
import { callTool, storeArgs, withColony } from '../_colony';
import { printJson, printLines } from '../_output';

export default defineCommand({
  meta: {
    name: 'inbox',
    description: 'What needs you now: handoffs, messages, blockers, stalled lanes, claims, hot files.',
  },
  args: {
    ...agentArgs,
    'repo-root': {
      type: 'string',
      description: 'Only this repository (relative paths resolve; default: every repository)',
      valueHint: 'path',
    },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const inbox = await withColony(args, (colony) =>
      callTool<AttentionInboxResult>(colony, 'attention_inbox', agentInput(args)),
    );
    if (args.json) return printJson(inbox);
    printLines(render(expandInbox(inbox)));
  },
});

function render(inbox: ExpandedInbox): string[] {
  const s = inbox.summary;
  const lines = [
    `inbox: ${s.unread_message_count} unread (${s.blocking_message_count} blocking, ${s.needs_reply_message_count} needs_reply), ${s.pending_handoff_count} handoff(s), ${s.pending_wake_count} wake(s), ${s.blocker_count} blocker(s), ${s.stalled_lane_count} stalled lane(s), ${s.recent_other_claim_count} fresh claim(s) of others, ${s.stale_claim_count} stale claim(s), ${s.hot_file_count} hot file(s)`,
    `next: ${s.next_action}`,
  ];
  for (const h of inbox.pending_handoffs) {
    lines.push(`handoff #${h.id} task #${h.task_id} from ${h.from_agent}: ${h.summary} (${h.accept_with.tool})`);
  }
  for (const w of inbox.pending_wakes) {
    lines.push(
      `wake #${w.id} task #${w.task_id} relay (${w.reason}) from ${w.from_agent}: ${w.summary} (${w.accept_with.tool})`,
    );
  }
  for (const m of inbox.unread_messages) {
    lines.push(`message #${m.id} task #${m.task_id} ${m.urgency} from ${m.from_agent}: ${m.preview}`);
  }
  for (const b of inbox.blockers) lines.push(`blocker #${b.id} task #${b.task_id} from ${b.from_agent}: ${b.preview}`);
  for (const l of inbox.stalled_lanes) {
    lines.push(
      `stalled lane ${l.session_id} (${l.owner}) task #${l.task_id} ${l.branch}: ${l.activity}, ${l.activity_summary}`,
    );
  }
  for (const c of inbox.recent_other_claims) {
    lines.push(`claim ${c.file_path} task #${c.task_id} by ${c.session_id} (${c.agent})`);
  }
  for (const f of inbox.file_heat) lines.push(`hot ${f.file_path} task #${f.task_id} heat ${f.heat}`);
  const stale = inbox.stale_claim_signals;
  if (stale.stale_claim_count > 0) {
    const top = stale.top_stale_branches.map((b) => `${b.branch} (${b.stale_claim_count})`).join(', ');
    lines.push(`stale: ${stale.stale_claim_count} claim(s), most on ${top}. ${stale.sweep_suggestion}`);
  }
  const more = 'collapsed_count' in inbox.budget ? inbox.budget.collapsed_count : 0;
  if (more > 0) lines.push(`not listed: ${more} more entr${more === 1 ? 'y' : 'ies'} (counted above)`);
  return lines;
}
