/**
 * @module tools/ready
 * Choosing work: task_ready_for_agent ranks the claimable plan sub-tasks for one agent
 * (and claims the unambiguous best one in the same call), task_autopilot_tick turns
 * the inbox plus ready work into one next call and a sleep hint. Both are stateless
 * advisors; the loop lives in the caller.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo, WholeBudgetInfo } from '../schemas';
import { agentName, limit, repoRoot, sessionId } from '../schemas';

export const READY_EMPTY_STATE =
  'No claimable plan subtasks. Publish a Queen/task plan for multi-agent work, reinforce a ' +
  'proposal with task_propose/task_reinforce, or use task_list only for browsing.';
export const READY_NO_PLAN_ACTION = 'Publish a Queen/task plan or promote a proposal into claimable work.';
export const READY_BLOCKED_ACTION =
  'Complete upstream dependencies or unblock current plan waves before claiming more work.';
/** Paths of a ready entry's file_scope shown; past it, file_scope_total says how many there are. */
export const READY_FILE_PREVIEW = 4;
/** How long task_autopilot_tick suggests sleeping with nothing to do. */
export const AUTOPILOT_IDLE_WAKE_SECONDS = 1200;

export const TaskReadyForAgentInput = z.strictObject({
  session_id: sessionId,
  agent: agentName,
  repo_root: repoRoot.optional(),
  limit: limit(5, 20),
  auto_claim: z.boolean().default(true),
});
export type TaskReadyForAgentInput = z.output<typeof TaskReadyForAgentInput>;

export type ReadyReason = 'continue_current_task' | 'urgent_override' | 'ready_high_score';

/**
 * The exact task_plan_claim_subtask arguments for a ready sub-task. The top pick's are
 * the seed's shape (repo_root, file_scope); a ready entry's leave file_scope to the
 * entry (the claim takes the sub-task's own scope either way) and name repo_root only
 * when the slug exists in several repositories.
 */
export interface ReadyClaimArgs {
  repo_root?: string;
  plan_slug: string;
  subtask_index: number;
  session_id: string;
  agent: string;
  file_scope?: string[];
}

/** What a claimable pick carries so an agent claims instead of stopping at discovery. */
export interface ReadyClaimRouting {
  next_tool: 'task_plan_claim_subtask';
  claim_args: ReadyClaimArgs;
  codex_mcp_call: string;
  next_action_reason: string;
}

export interface ReadyEntry extends Partial<ReadyClaimRouting> {
  priority: number;
  plan_slug: string;
  subtask_index: number;
  /** Only on the sub-task already yours (continue_current_task): its thread, to post on. */
  task_id?: number;
  wave_index: number;
  wave_name: string;
  blocked_by_count: number;
  title: string;
  capability_hint: string | null;
  /** The scope, at most READY_FILE_PREVIEW paths (file_scope_total says how many there are when cut). */
  file_scope: string[];
  file_scope_total?: number;
  fit_score: number;
  reason: ReadyReason;
  reasoning: string;
  /** Only on a pick routed to another agent: who, and why (an entry without them is yours). */
  assigned_agent?: string;
  routing_reason?: string;
  /** Others' fresh or handoff_pending claims on files of the scope (at most 5). */
  conflicts?: Array<{ file_path: string; session_id: string; agent: string }>;
}

export type AutoClaimOutcome =
  | { ok: true; plan_slug: string; subtask_index: number; task_id: number; branch: string; file_scope: string[] }
  | { ok: false; plan_slug: string; subtask_index: number; code: string; error: string };

export interface ReadyForAgentResult extends Partial<ReadyClaimRouting> {
  ready: ReadyEntry[];
  total_available: number;
  next_action: string;
  plan_slug?: string;
  subtask_index?: number;
  reason?: ReadyReason;
  assigned_agent?: string;
  routing_reason?: string;
  auto_claimed?: AutoClaimOutcome;
  empty_state?: string;
}

/** task_ready_for_agent's answer: the ready work plus its budget. */
export type ReadyForAgentAnswer = ReadyForAgentResult & { budget: BudgetInfo | WholeBudgetInfo };

export type AutopilotDecision =
  | 'accept_handoff'
  | 'accept_quota_relay'
  | 'reply_blocking_message'
  | 'claim_ready'
  | 'continue_current'
  | 'no_op';

export interface AutopilotSignals {
  pending_handoff_count: number;
  quota_pending_claim_count: number;
  unread_message_count: number;
  blocking_message_count: number;
  ready_subtask_count: number;
  stalled_lane_count: number;
  dead_heartbeat_lane_count: number;
  actionable_stalled_lane_count: number;
}

export interface AutopilotTickResult {
  generated_at: number;
  decision: AutopilotDecision;
  reason: string;
  next_tool: string | null;
  next_args: Record<string, unknown> | null;
  next_action: string;
  suggested_wake_seconds: number;
  signals: AutopilotSignals;
  budget: BudgetInfo;
}

export interface ReadyBackend {
  readyForAgent(args: TaskReadyForAgentInput): Promise<ReadyForAgentAnswer>;
  autopilotTick(args: TaskAutopilotTickInput): Promise<AutopilotTickResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly ready: ReadyBackend };

export const taskReadyForAgent = defineTool({
  name: 'task_ready_for_agent',
  title: 'Ready work',
  description: 'Pick the next task to work on.',
  input: TaskReadyForAgentInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns:
      '{ ready: [ { priority, plan_slug, subtask_index, task_id?, wave_index, wave_name, ' +
      'blocked_by_count, title, capability_hint, file_scope, file_scope_total?, fit_score, reason, ' +
      'reasoning, assigned_agent?, routing_reason?, conflicts?, next_tool?, claim_args?, ' +
      'codex_mcp_call?, next_action_reason? } ], total_available, next_action } plus, when claimable ' +
      'work exists, next_tool, plan_slug, subtask_index, reason, assigned_agent, routing_reason, ' +
      'next_action_reason, claim_args, codex_mcp_call; auto_claimed: { ok, plan_slug, subtask_index, ' +
      'task_id, branch, file_scope } (or { ok: false, code, error }) when the call claimed; ' +
      'empty_state when nothing is claimable; budget: { items_available, items_returned, ' +
      'collapsed_count, estimated_tokens_returned, hydrate_with, why_collapsed }.',
    notes:
      `Candidates are sub-tasks of active plans (of repo_root, else every repository) that are ` +
      `available with every dependency completed, plus the ones you hold claimed (reason ` +
      `continue_current_task; listed first, without claim fields). priority = 0.5 fit + 0.2 continuity ` +
      `+ 0.2 unblocking + 0.1 earliness - 0.5 conflict: fit_score is your profile weight for the ` +
      `capability_hint (agent_get_profile; 0.5 without a hint), continuity 1 when the scope touches ` +
      `files you claim and 0.5 when you already work in the plan, unblocking min(downstream, 4)/4 for ` +
      `the not-completed sub-tasks waiting on it, earliness 1/(1 + wave_index), and conflict the share ` +
      `of the scope others hold fresh or handoff_pending claims on (listed in conflicts). reason ` +
      `urgent_override (an unread blocking message to you on its thread) ranks above everything; ties ` +
      `break by plan_slug then subtask_index. Blocked work is never listed (blocked_by_count is ` +
      `therefore 0). assigned_agent is you unless another agent around (a session heartbeating within ` +
      `the hour, another family) has a profile weight for the hint more than 0.15 above yours; such a ` +
      `pick is routed to it instead of claimed. auto_claim (default true) claims the top pick in this ` +
      `call (through task_plan_claim_subtask: joins the thread, claims its files) when it is assigned ` +
      `to you, none of its files is held by others, and you are not already on a claimed sub-task; ` +
      `next_action then reads "Auto-claimed <slug>/sub-<n>: claim files before edits with ` +
      `task_claim_file, then post task_note_working." Cross-agent or contested picks and auto_claim: ` +
      `false only advise. With nothing claimable: empty_state "${READY_EMPTY_STATE}" and next_action ` +
      `"${READY_NO_PLAN_ACTION}" (no plan) or "${READY_BLOCKED_ACTION}" (plans whose later waves ` +
      `wait). Compact entries: title at most 80 characters; file_scope at most ${READY_FILE_PREVIEW} ` +
      `paths (file_scope_total counts them when cut); reasoning names only what the other fields do ` +
      `not (continuity, unblocking, conflicts, a blocking message; else "fit <n> alone"); ` +
      `assigned_agent and routing_reason only on entries routed to another agent (an entry without ` +
      `them is yours); at most 3 conflicts. An entry's claim_args and codex_mcp_call are the minimal ` +
      `exact call (plan_slug, subtask_index, session_id, agent, plus repo_root when the slug exists in ` +
      `several repositories: the claim takes the sub-task's own file_scope) and its next_action_reason ` +
      `a few words; the top-level claim fields of the top pick carry repo_root and the whole ` +
      `file_scope. budget counts the ranked sub-tasks against the entries shown (hydrate_with ` +
      `task_plan_list). Calling it also stops task_list's browsing warning.`,
    example: { session_id: 'sess_def', agent: 'codex', repo_root: '/abs/repo', limit: 5, auto_claim: true },
  },
  handler: (args, b: Host) => b.ready.readyForAgent(args),
});

export const TaskAutopilotTickInput = z.strictObject({
  session_id: sessionId,
  agent: agentName,
  repo_root: repoRoot.optional(),
});
export type TaskAutopilotTickInput = z.output<typeof TaskAutopilotTickInput>;

export const taskAutopilotTick = defineTool({
  name: 'task_autopilot_tick',
  title: 'Autopilot tick',
  description: 'The next tool to call, with its args.',
  input: TaskAutopilotTickInput,
  core: true,
  mutates: false,
  docs: {
    returns:
      '{ generated_at, decision, reason, next_tool, next_args, next_action, suggested_wake_seconds, ' +
      'signals: { pending_handoff_count, quota_pending_claim_count, unread_message_count, ' +
      'blocking_message_count, ready_subtask_count, stalled_lane_count, dead_heartbeat_lane_count, ' +
      'actionable_stalled_lane_count }, budget }',
    notes:
      `Writes nothing and never sleeps: the loop lives in the caller (a scheduler, /loop, cron). The ` +
      `first match wins: 1. accept_handoff: a pending handoff for you (task_accept_handoff args). 2. ` +
      `accept_quota_relay: a pending relay for you, whose claims wait to be adopted ` +
      `(task_claim_quota_accept args). 3. reply_blocking_message: an unread blocking message ` +
      `(task_message_mark_read args; read the body first). 4. claim_ready: task_ready_for_agent ` +
      `(without auto-claim) has a claimable pick for you (task_plan_claim_subtask args). 5. ` +
      `continue_current: you hold a claimed sub-task (task_plan_complete_subtask args; add a summary ` +
      `when done). 6. no_op: next_tool and next_args null. suggested_wake_seconds: 60 for 1-4, 270 for ` +
      `continue_current, ${AUTOPILOT_IDLE_WAKE_SECONDS} for no_op. Stalled lanes are other sessions' ` +
      `lanes on active threads (of repo_root, when given) whose session is stalled (heard from 10 to ` +
      `60 minutes ago, not ended), plus stalled or dead lanes still holding live claims or a claimed ` +
      `sub-task (attention_inbox's stalled lanes); a session long gone that holds nothing is not ` +
      `counted. Those whose thread title starts with "Session start", "No active swarm" or ` +
      `"Heartbeat", or that have no title and hold no claim, count as dead heartbeats, the rest as ` +
      `actionable_stalled_lane_count (escalate on that one; see rescue_stranded_scan). budget counts ` +
      `the actionable signals (handoffs, relays, blocking messages, ready sub-tasks) against the one ` +
      `decision returned (none for no_op); hydrate_with attention_inbox.`,
    example: { session_id: 'sess_abc', agent: 'claude-code', repo_root: '/abs/repo' },
  },
  handler: (args, b: Host) => b.ready.autopilotTick(args),
});

export const readyTools = [taskReadyForAgent, taskAutopilotTick];
