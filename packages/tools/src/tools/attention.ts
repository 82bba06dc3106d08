/**
 * @module tools/attention
 * attention_inbox: after hivemind_context and before choosing work, what needs this
 * session now, in compact buckets: pending handoffs, pending wakes (relays), unread
 * messages with their reply and mark-read calls, open blockers, stalled lanes of other
 * sessions, fresh claims of others, a stale-claim summary and decaying hot files.
 * Counts for everything; ids to hydrate with get_observations; a few entries listed.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo, WholeBudgetInfo } from '../schemas';
import { agentName, repoRoot, sessionId, taskId } from '../schemas';
import type { LaneActivity } from './lane-activity';
import type { MessageReplyArgs } from './messages';

/** Most entries listed per bucket; the rest are counted in `summary` and `budget`. */
export const ATTENTION_LIST_CAPS = {
  unread_messages: 5,
  pending_handoffs: 3,
  pending_wakes: 3,
  blockers: 3,
  stalled_lanes: 3,
  top_stale_branches: 2,
} as const;
/**
 * About how many tokens (cl100k_base) one answer may take: entries are listed in
 * priority order while they fit, the first one always (its share of the startup loop).
 */
export const ATTENTION_TOKEN_BUDGET = 600;
/** Edits older than this many half-lives weigh under 1/64 and are left out of file_heat. */
export const FILE_HEAT_WINDOW_HALF_LIVES = 6;
/** The newest edit observations file_heat reads, however many fall in its window. */
export const FILE_HEAT_EDIT_SCAN = 500;

/**
 * Defaults of the optional tuning inputs. Applied by the backend, not the schema, so
 * tools/list stays short (every agent pays for it on every turn); docs name them.
 */
export const ATTENTION_DEFAULTS = {
  recent_claim_window_minutes: 30,
  recent_claim_limit: 5,
  file_heat_half_life_minutes: 30,
  file_heat_limit: 3,
} as const;

const minutes = z.int().min(1).max(1440).optional();

export const AttentionInboxInput = z.strictObject({
  session_id: sessionId,
  agent: agentName,
  repo_root: repoRoot.optional(),
  repo_roots: z.array(repoRoot).min(1).max(20).optional(),
  task_ids: z.array(taskId).min(1).max(100).optional(),
  recent_claim_window_minutes: minutes,
  recent_claim_limit: z.int().min(1).max(100).optional(),
  file_heat_half_life_minutes: minutes,
  file_heat_limit: z.int().min(1).max(50).optional(),
});
export type AttentionInboxInput = z.output<typeof AttentionInboxInput>;

/** A ready call: the tool and its arguments. */
export interface AttentionCall {
  tool: string;
  args: Record<string, unknown>;
}

export interface AttentionSummary {
  unread_message_count: number;
  blocking_message_count: number;
  needs_reply_message_count: number;
  pending_handoff_count: number;
  pending_wake_count: number;
  blocker_count: number;
  stalled_lane_count: number;
  recent_other_claim_count: number;
  stale_claim_count: number;
  hot_file_count: number;
  /** An unread blocking message or an open blocker post. */
  blocked: boolean;
  next_action: string;
}

export interface AttentionHandoff {
  id: number;
  task_id: number;
  from_agent: string;
  summary: string;
  expires_at: number;
  next: string;
  accept_with: AttentionCall;
  decline_with: AttentionCall;
}

/** A relay addressed to you: a stopped agent's request that someone resume its work. */
export interface AttentionWake extends AttentionHandoff {
  reason: string;
}

export interface AttentionMessage {
  id: number;
  task_id: number;
  ts: number;
  from_agent: string;
  urgency: string;
  preview: string;
  expires_at: number | null;
  reply_tool: 'task_message';
  suggested_reply_args: MessageReplyArgs;
  reply_args: MessageReplyArgs;
  reply_with_tool: 'task_message';
  reply_with_args: MessageReplyArgs;
  mark_read_tool: 'task_message_mark_read';
  mark_read_args: { message_observation_id: number; session_id: string };
  mark_read_with_tool: 'task_message_mark_read';
  mark_read_with_args: { message_observation_id: number; session_id: string };
  /** On blocking and needs_reply messages. */
  next_action?: string;
}

export interface AttentionBlocker {
  id: number;
  task_id: number;
  from_session_id: string;
  from_agent: string;
  ts: number;
  preview: string;
  answer_with: AttentionCall;
}

export interface AttentionLaneAction {
  action: 'inspect' | 'takeover' | 'ignore';
  reason: string;
  tool?: string;
  args?: Record<string, unknown>;
  command?: string;
}

export interface AttentionStalledLane {
  repo_root: string;
  branch: string;
  task: string;
  task_id: number;
  owner: string;
  session_id: string;
  activity: LaneActivity;
  activity_summary: string;
  worktree_path: string | null;
  live_claim_count: number;
  plan_subtask: { plan_slug: string; subtask_index: number } | null;
  observation_id: number;
  next_action: string;
  suggested_actions: AttentionLaneAction[];
}

export interface AttentionClaimEntry {
  task_id: number;
  file_path: string;
  session_id: string;
  agent: string;
  claimed_at: number;
  observation_id: number;
}

export interface StaleClaimSignals {
  stale_claim_count: number;
  top_stale_branches: Array<{ branch: string; task_id: number; stale_claim_count: number }>;
  sweep_suggestion: string | null;
}

export interface FileHeatEntry {
  file_path: string;
  task_id: number;
  heat: number;
  observation_id: number;
}

/** The inbox in full: every count and bucket (composing surfaces such as startup_panel read it). */
export interface AttentionInbox {
  summary: AttentionSummary;
  pending_handoffs: AttentionHandoff[];
  pending_wakes: AttentionWake[];
  unread_messages: AttentionMessage[];
  blockers: AttentionBlocker[];
  stalled_lanes: AttentionStalledLane[];
  recent_other_claims: AttentionClaimEntry[];
  stale_claim_signals: StaleClaimSignals;
  file_heat: FileHeatEntry[];
  budget: BudgetInfo;
}

/**
 * attention_inbox's answer: the inbox with what says nothing left out (issue 17's token
 * goal). Zero counts leave `summary` (blocked and next_action always stay), an empty
 * bucket is omitted, stale_claim_signals appears only with stale claims, and the budget
 * is trimmed to { items_returned, estimated_tokens_returned } when nothing was left out.
 */
export interface AttentionInboxResult {
  summary: Partial<AttentionSummary> & Pick<AttentionSummary, 'blocked' | 'next_action'>;
  pending_handoffs?: AttentionHandoff[];
  pending_wakes?: AttentionWake[];
  unread_messages?: AttentionMessage[];
  blockers?: AttentionBlocker[];
  stalled_lanes?: AttentionStalledLane[];
  recent_other_claims?: AttentionClaimEntry[];
  stale_claim_signals?: StaleClaimSignals;
  file_heat?: FileHeatEntry[];
  budget: BudgetInfo | WholeBudgetInfo;
}

/** attention_inbox's answer with every field back: omitted counts are 0, omitted buckets empty. */
export type ExpandedInbox = Omit<AttentionInbox, 'budget'> & { budget: AttentionInboxResult['budget'] };

/** For readers that walk every bucket (the CLI inbox, the viewer): fills back what the answer omits. */
export function expandInbox(answer: AttentionInboxResult): ExpandedInbox {
  const s = answer.summary;
  return {
    summary: {
      unread_message_count: s.unread_message_count ?? 0,
      blocking_message_count: s.blocking_message_count ?? 0,
      needs_reply_message_count: s.needs_reply_message_count ?? 0,
      pending_handoff_count: s.pending_handoff_count ?? 0,
      pending_wake_count: s.pending_wake_count ?? 0,
      blocker_count: s.blocker_count ?? 0,
      stalled_lane_count: s.stalled_lane_count ?? 0,
      recent_other_claim_count: s.recent_other_claim_count ?? 0,
      stale_claim_count: s.stale_claim_count ?? 0,
      hot_file_count: s.hot_file_count ?? 0,
      blocked: s.blocked,
      next_action: s.next_action,
    },
    pending_handoffs: answer.pending_handoffs ?? [],
    pending_wakes: answer.pending_wakes ?? [],
    unread_messages: answer.unread_messages ?? [],
    blockers: answer.blockers ?? [],
    stalled_lanes: answer.stalled_lanes ?? [],
    recent_other_claims: answer.recent_other_claims ?? [],
    stale_claim_signals: answer.stale_claim_signals ?? {
      stale_claim_count: 0,
      top_stale_branches: [],
      sweep_suggestion: null,
    },
    file_heat: answer.file_heat ?? [],
    budget: answer.budget,
  };
}

const CAPS = ATTENTION_LIST_CAPS;

export interface AttentionBackend {
  inbox(args: AttentionInboxInput): Promise<AttentionInboxResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly attention: AttentionBackend };

export const attentionInbox = defineTool({
  name: 'attention_inbox',
  title: 'Attention inbox',
  description: 'What needs you now: handoffs, messages, blockers.',
  input: AttentionInboxInput,
  core: true,
  mutates: false,
  docs: {
    returns:
      '{ summary: { unread_message_count, blocking_message_count, needs_reply_message_count, ' +
      'pending_handoff_count, pending_wake_count, blocker_count, stalled_lane_count, ' +
      'recent_other_claim_count, stale_claim_count, hot_file_count (each only when not 0), blocked, ' +
      'next_action }, pending_handoffs?: [ { id, task_id, from_agent, summary, expires_at, next, accept_with, ' +
      'decline_with } ], pending_wakes?: [ { ...same, reason } ], unread_messages?: [ { id, task_id, ts, ' +
      'from_agent, urgency, preview, expires_at, reply_tool, suggested_reply_args, reply_args, ' +
      'reply_with_tool, reply_with_args, mark_read_tool, mark_read_args, mark_read_with_tool, ' +
      'mark_read_with_args, next_action? } ], blockers?: [ { id, task_id, from_session_id, from_agent, ' +
      'ts, preview, answer_with } ], stalled_lanes?: [ { repo_root, branch, task, task_id, owner, ' +
      'session_id, activity, activity_summary, worktree_path, live_claim_count, plan_subtask, ' +
      'observation_id, next_action, suggested_actions: [ { action, reason, tool?, args?, command? } ] ' +
      '} ], recent_other_claims?: [ { task_id, file_path, session_id, agent, claimed_at, observation_id ' +
      '} ], stale_claim_signals?: { stale_claim_count, top_stale_branches: [ { branch, task_id, ' +
      'stale_claim_count } ], sweep_suggestion }, file_heat?: [ { file_path, task_id, heat, ' +
      'observation_id } ], budget }',
    errors: ['TASK_NOT_FOUND'],
    notes:
      `Call it after hivemind_context and before task_ready_for_agent; it writes nothing. Compact ` +
      `answer (issue 17, changed from the seed's always-present shape): a summary count of 0 is ` +
      `omitted (blocked and next_action always stay), an empty bucket is omitted, stale_claim_signals ` +
      `appears only when there are stale claims, and when nothing was left out the budget is just ` +
      `{ items_returned, estimated_tokens_returned }. Scope: ` +
      `repo_root and repo_roots (together: their union; neither: every repository), narrowed by ` +
      `task_ids. Your buckets (handoffs, wakes, messages, blockers) cover the threads you take part in ` +
      `within scope; a session not registered yet simply has none. pending_handoffs: pending, ` +
      `unexpired handoffs addressed to you (your session, or your agent family / any with no session ` +
      `named); expired ones are hidden (their observations stay for audit). pending_wakes: colony ` +
      `keeps no wake timers, so a wake is a pending relay (task_relay: a stopped agent asking someone ` +
      `to resume its work) addressed to you; accept_with / decline_with are task_accept_relay / ` +
      `task_decline_relay. unread_messages: unread, unexpired messages to you (task_messages' default ` +
      `inbox: read, replied, retracted and expired ones drop out), blocking first, then needs_reply, ` +
      `then fyi, newest first within each; each carries reply_tool/suggested_reply_args (repeated as ` +
      `reply_args, reply_with_tool/reply_with_args) and mark_read_tool/mark_read_args (repeated as ` +
      `mark_read_with_*), plus next_action on blocking and needs_reply. blockers: \`blocker\` posts on ` +
      `your threads that no observation replies to yet (among the newest 200 blocker posts); answer ` +
      `with task_post kind answer and reply_to. Blocking messages are not repeated there: ` +
      `summary.blocked is true for an unread blocking message or an open blocker. stalled_lanes: ` +
      `another session's lane (session, thread) whose activity (hivemind's classes) is stalled or dead ` +
      `while it still holds active file claims or a claimed plan sub-task, most recently heard from ` +
      `first; suggested_actions inspect (task_timeline; git status when the worktree is known), ` +
      `takeover (rescue_stranded_run relays the stranded work; accept the relay to take it over), ` +
      `ignore. recent_other_claims: other sessions' fresh or handoff_pending claims refreshed within ` +
      `recent_claim_window_minutes (1-1440, default ` +
      `${ATTENTION_DEFAULTS.recent_claim_window_minutes}), newest first, at most recent_claim_limit ` +
      `(1-100, default ${ATTENTION_DEFAULTS.recent_claim_limit}). stale_claim_signals: live claims ` +
      `(anyone's) whose age class is stale or weak_expired, kept apart from ownership, with the top ` +
      `branches and a sweep suggestion. file_heat: per file, the sum of 0.5^(age / ` +
      `file_heat_half_life_minutes (1-1440, default ` +
      `${ATTENTION_DEFAULTS.file_heat_half_life_minutes})) over its edits (the newest ` +
      `${FILE_HEAT_EDIT_SCAN} edit observations) and live claims (by last refresh) within ` +
      `${FILE_HEAT_WINDOW_HALF_LIVES} half-lives, hottest first, at most file_heat_limit (1-50, ` +
      `default ${ATTENTION_DEFAULTS.file_heat_limit}); computed at read time, so heat fades without ` +
      `any job. Listing: entries go in priority order (blocking messages, handoffs, wakes, needs_reply ` +
      `messages, blockers, stalled lanes, fyi messages, fresh claims, hot files; at most ` +
      `${CAPS.unread_messages} messages, ${CAPS.pending_handoffs} handoffs, ${CAPS.pending_wakes} ` +
      `wakes, ${CAPS.blockers} blockers, ${CAPS.stalled_lanes} stalled lanes) while the whole answer ` +
      `stays within about ${ATTENTION_TOKEN_BUDGET} tokens, the first always; what does not fit is ` +
      `counted in summary and budget (collapsed_count, why_collapsed), and task_messages lists every ` +
      `unread message. Every entry names the observation id(s) to hydrate with get_observations.`,
    example: {
      session_id: 'sess_abc',
      agent: 'claude',
      repo_roots: ['/abs/repo-a', '/abs/repo-b'],
      recent_claim_window_minutes: 30,
      recent_claim_limit: 20,
      file_heat_half_life_minutes: 30,
      file_heat_limit: 10,
    },
  },
  handler: (args, b: Host) => b.attention.inbox(args),
});

export const attentionTools = [attentionInbox];
