/**
 * @module lanes/next-step
 * The one next step a startup card recommends, from what attention_inbox and
 * task_ready_for_agent answered and the caller's active lane, first match wins:
 * a handoff, a blocking message, a waiting relay, a needs_reply message, the lane
 * already under way, claimable ready work, stalled lanes, else the ready empty state.
 */
import type { AttentionInbox, ReadyForAgentResult } from '@swarm/tools';
import type { Lane } from './lane';
import { preview } from './lane';

export interface NextStep {
  readonly action: string;
  readonly tool: string | null;
  readonly args: Record<string, unknown> | null;
}

export interface NextStepInput {
  readonly sessionId: string;
  readonly inbox: AttentionInbox;
  readonly ready: ReadyForAgentResult;
  readonly active: Lane | null;
}

export const STALLED_NEXT_ACTION = 'Review stalled lanes before treating the repo as idle.';

export function nextStep({ sessionId, inbox, ready, active }: NextStepInput): NextStep {
  const handoff = inbox.pending_handoffs[0];
  if (handoff) {
    return {
      action: `Accept or decline handoff #${handoff.id} on task ${handoff.task_id}: ${preview(handoff.summary, 60)}`,
      ...handoff.accept_with,
    };
  }
  const blocking = inbox.unread_messages.find((m) => m.urgency === 'blocking');
  if (blocking) {
    return {
      action: `Read blocking message #${blocking.id} from ${blocking.from_agent} (get_observations), reply with task_message, then mark it read.`,
      tool: 'get_observations',
      args: { ids: [blocking.id] },
    };
  }
  const wake = inbox.pending_wakes[0];
  if (wake) {
    return { action: `Resume or decline relay #${wake.id} on task ${wake.task_id}.`, ...wake.accept_with };
  }
  const needsReply = inbox.unread_messages.find((m) => m.urgency === 'needs_reply');
  if (needsReply) {
    return {
      action: `Reply to message #${needsReply.id} from ${needsReply.from_agent} with task_message.`,
      tool: 'task_message',
      args: { ...needsReply.reply_args },
    };
  }
  if (active) {
    return {
      action: `Continue ${active.branch}.`,
      tool: 'task_note_working',
      args: {
        session_id: sessionId,
        repo_root: active.repoRoot,
        branch: active.branch,
        content: `branch=${active.branch}; task=${active.task}; blocker=none; next=...; evidence=...`,
      },
    };
  }
  if (ready.next_tool && ready.claim_args) {
    return { action: ready.next_action, tool: ready.next_tool, args: { ...ready.claim_args } };
  }
  if (inbox.summary.stalled_lane_count > 0) {
    return { action: STALLED_NEXT_ACTION, tool: 'rescue_stranded_scan', args: {} };
  }
  return { action: ready.next_action, tool: null, args: null };
}

/** The copy-paste form of a call, as Codex-style MCP names spell it. */
export function mcpCall(tool: string, args: Record<string, unknown>): string {
  return `mcp__colony__${tool}(${JSON.stringify(args)})`;
}
