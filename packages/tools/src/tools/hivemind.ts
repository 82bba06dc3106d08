/**
 * @module tools/hivemind
 * The live lane map: which session works on which task thread of a repository, how
 * active it is (read from its heartbeat and file work at read time), what it owns
 * (branch, live file claims). hivemind_context adds compact memory hits, negative
 * warnings and the scope's attention counts, and points the startup loop at
 * attention_inbox before any work is chosen.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo, WholeBudgetInfo } from '../schemas';
import { limit, repoRoot } from '../schemas';
import type { LaneActivity } from './lane-activity';
import type { CompactSearchHit } from './memory';

/** What hivemind_context.summary.next_action always says: the inbox comes before choosing work. */
export const HIVEMIND_NEXT_ACTION = 'Do not choose work yet. Call attention_inbox, then task_ready_for_agent.';
export const HIVEMIND_ATTENTION_HINT =
  'Call attention_inbox to review pending handoffs, unread messages, blockers, and stalled lanes before claiming work.';
export const HIVEMIND_READY_WORK_HINT =
  'Then call task_ready_for_agent to choose claimable work. Use task_list only for browsing/debugging.';
export const HIVEMIND_ATTENTION_HYDRATION =
  'Hydrate with attention_inbox; call get_observations with observation_ids only for bodies.';
/** Where lane entries come from: colony's own session heartbeats and task threads. */
export const LANE_SOURCE = 'colony-session';
/** About the most tokens a hivemind_context answer takes: lanes fill what the rest leaves (at least one). */
export const CONTEXT_TOKEN_TARGET = 620;
/** The environment variable naming the default repository roots (split by the platform path delimiter). */
export const HIVEMIND_REPO_ROOTS_ENV = 'COLONY_HIVEMIND_REPO_ROOTS';

/** Scope arguments shared by the lane tools. */
export const laneScope = {
  repo_root: repoRoot.optional(),
  repo_roots: z.array(repoRoot).min(1).max(20).optional(),
  include_stale: z.boolean().default(false),
  limit: limit(50, 100),
};

export const HivemindInput = z.strictObject(laneScope);
export type HivemindInput = z.output<typeof HivemindInput>;

/** One lane: a session on a task thread. */
export interface HivemindLane {
  session_id: string;
  task_id: number;
  branch: string;
  /** The thread title (or branch), at most 80 characters. */
  task: string;
  agent: string;
  /** `<agent>/<ide>`, e.g. codex/codex. */
  owner: string;
  activity: LaneActivity;
  /** How long the lane has been quiet, for idle, stalled and dead lanes. */
  activity_summary?: string;
  worktree_path: string | null;
  source: typeof LANE_SOURCE;
  locked_file_count: number;
  /** At most 3 of the lane's live claims, newest first. */
  locked_file_preview: string[];
  needs_attention: boolean;
}

export interface HivemindResult {
  generated_at: string;
  repo_roots: string[];
  /** Lanes in scope (before `limit`). */
  session_count: number;
  counts: Record<LaneActivity, number>;
  sessions: HivemindLane[];
  budget: BudgetInfo;
}

const SCOPE_NOTES =
  `Lanes are colony's own sessions on task threads (task_participants not left, the thread active, ` +
  `its plan sub-task not completed) of the repositories in scope: repo_root and/or repo_roots, ` +
  `else ${HIVEMIND_REPO_ROOTS_ENV} (split by the platform path delimiter), else the server's ` +
  `working directory. activity is read at call time from the session's last heartbeat (every tool ` +
  `call and hook moves it) and its last file work on the thread (an edit or a claim): working ` +
  `(heartbeat < 5 min and file work < 5 min), thinking (heartbeat < 5 min), idle (< 10 min), ` +
  `stalled (< 60 min), dead (older, or the session ended). include_stale: false (default) hides ` +
  `dead lanes and reads only sessions heartbeating within the hour; true reads the newest 500 ` +
  `lanes. needs_attention: a stalled or dead lane still holding live claims or its claimed plan ` +
  `sub-task (as attention_inbox's stalled lanes). owner is <agent>/<ide>; locked_file_preview ` +
  `lists at most 3 of the lane's live claims; worktree_path is the session's cwd when a hook ` +
  `reported it.`;

/** The live lane map (hivemind, hivemind_context). */
export interface LaneBackend {
  hivemind(args: HivemindInput): Promise<HivemindResult>;
  context(args: HivemindContextInput): Promise<HivemindContextResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly lanes: LaneBackend };

export const hivemind = defineTool({
  name: 'hivemind',
  title: 'Hivemind',
  description: 'What active sessions are doing.',
  input: HivemindInput,
  mutates: false,
  docs: {
    returns:
      '{ generated_at, repo_roots, session_count, counts: { working, thinking, idle, stalled, dead, ' +
      'unknown }, sessions: [ { session_id, task_id, branch, task, agent, owner, activity, ' +
      'activity_summary?, worktree_path, source, locked_file_count, locked_file_preview, ' +
      'needs_attention } ], budget }',
    notes:
      `${SCOPE_NOTES} activity_summary (e.g. "Heartbeat stale for 12m 0s.") is given for idle, stalled ` +
      `and dead lanes. Lanes needing attention come first, then by newest heartbeat; limit (default ` +
      `50, max 100) cuts the list, session_count and counts cover every lane in scope. Use it as a ` +
      `first context step to see which session owns which task before reading timelines.`,
    example: { repo_root: '/abs/repo', include_stale: false, limit: 50 },
  },
  handler: (args, b: Host) => b.lanes.hivemind(args),
});

export const HivemindContextInput = z.strictObject({
  ...laneScope,
  query: z.string().min(1).max(2000).optional(),
  memory_limit: z.int().min(0).max(10).default(3),
});
export type HivemindContextInput = z.output<typeof HivemindContextInput>;

/** A lane as hivemind_context lists it: just enough to see ownership. */
export interface ContextLane {
  task_id: number;
  branch: string;
  task: string;
  owner: string;
  activity: LaneActivity;
  needs_attention: boolean;
  /** Present when the lane holds live claims. */
  locked_file_preview?: string[];
}

export interface NegativeWarning {
  id: number;
  session_id: string;
  kind: string;
  snippet: string;
  ts: number;
  task_id: number;
}

export interface HivemindContextSummary {
  lane_count: number;
  memory_hit_count: number;
  negative_warning_count: number;
  needs_attention_count: number;
  next_action: string;
  suggested_tools: string[];
  must_check_attention: boolean;
  attention_hint: string;
  ready_work_hint: string;
  unread_message_count: number;
  pending_handoff_count: number;
  blocking: boolean;
  ready_work_count: number;
}

export interface HivemindContextAttention {
  unread_messages: number;
  pending_handoffs: number;
  blocking: boolean;
  observation_ids: number[];
  /** Present (true) when more ids wait than were listed. */
  observation_ids_truncated?: boolean;
  hydration: string;
  hydrate_with: string;
}

export interface HivemindContextResult {
  generated_at: string;
  summary: HivemindContextSummary;
  attention: HivemindContextAttention;
  lanes: ContextLane[];
  memory_hits: CompactSearchHit[];
  negative_warnings: NegativeWarning[];
  budget: BudgetInfo | WholeBudgetInfo;
}

export const hivemindContext = defineTool({
  name: 'hivemind_context',
  title: 'Startup context',
  description: 'Startup context: lanes, memory hits, warnings.',
  input: HivemindContextInput,
  core: true,
  mutates: false,
  docs: {
    returns:
      '{ generated_at, summary: { lane_count, memory_hit_count, negative_warning_count, ' +
      'needs_attention_count, next_action, suggested_tools, must_check_attention, attention_hint, ' +
      'ready_work_hint, unread_message_count, pending_handoff_count, blocking, ready_work_count }, ' +
      'attention: { unread_messages, pending_handoffs, blocking, observation_ids, hydration, ' +
      'hydrate_with }, lanes: [ { task_id, branch, task, owner, activity, needs_attention, ' +
      'locked_file_preview? } ], memory_hits: [ { id, kind, snippet, score, task_id? } ], ' +
      'negative_warnings: [ { id, session_id, kind, snippet, ts, task_id } ], budget }',
    notes:
      `${SCOPE_NOTES} lanes are hivemind's, compacted, in the same order: they fill what is left of ` +
      `about ${CONTEXT_TOKEN_TARGET} tokens (at least one, at most limit); lane_count counts every ` +
      `lane in scope and budget.collapsed_count what was left out (call hivemind for the whole map). ` +
      `memory_hits: live memory for query, or, without one, for the titles of the live lanes' threads: ` +
      `the newest 64 of the newest 5,000 observations matching any term, ranked by BM25 with those ` +
      `5,000 as corpus, then the vector blend (older memory: search); memory_limit hits (default 3, ` +
      `max 10; 0 skips the search), snippets cut to 64 characters, ids already listed as warnings or ` +
      `attention left out. negative_warnings: the newest failed_approach, blocked_path, ` +
      `conflict_warning and reverted_solution posts on threads in scope (at most 2). The attention ` +
      `counts cover the scope (unread, not expired messages and pending, not expired handoffs on its ` +
      `threads; observation_ids also name pending relays); ready_work_count counts available plan ` +
      `sub-tasks there. summary.next_action is always "${HIVEMIND_NEXT_ACTION}" Hydrate memory and ` +
      `warning ids with get_observations, attention with attention_inbox. Issue 17 (token goals) ` +
      `changed the seed's shape: memory_hits are search's compact hits (no session_id or ts: ` +
      `get_observations has them), and when nothing was left out the budget is just ` +
      `{ items_returned, estimated_tokens_returned }.`,
    example: { repo_root: '/abs/repo', query: 'current task or branch', memory_limit: 3, limit: 20 },
  },
  handler: (args, b: Host) => b.lanes.context(args),
});

export const hivemindTools = [hivemind, hivemindContext];
