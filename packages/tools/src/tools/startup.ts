/**
 * @module tools/startup
 * One-payload startup surfaces composed from the lanes, attention_inbox and
 * task_ready_for_agent (never auto-claiming): startup_panel, a resume card for UIs and
 * agents, and bridge_status, the HUD-sized status OMX displays
 * (schema colony.omx_hud_status.v1). Both only read; previews are capped.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, branchName, limit, repoRoot, sessionId } from '../schemas';
import type { LaneActivity } from './lane-activity';

export const BRIDGE_STATUS_SCHEMA = 'colony.omx_hud_status.v1';
/** Caps of bridge_status's previews. */
export const BRIDGE_PREVIEW_CAPS = {
  lanes: 3,
  ready_work: 3,
  claimed_files: 5,
  claimed_files_full: 20,
  ids: 10,
} as const;

export const StartupPanelInput = z.strictObject({
  session_id: sessionId,
  agent: agentName,
  repo_root: repoRoot.optional(),
  branch: branchName.optional(),
  ready_limit: limit(3, 10),
});
export type StartupPanelInput = z.output<typeof StartupPanelInput>;

export interface StartupTask {
  task_id: number;
  branch: string;
  title: string;
  activity: LaneActivity;
}

export interface StartupReadyTask {
  plan_slug: string;
  subtask_index: number;
  title: string;
  reason: string;
  fit_score: number;
  file_scope_preview: string[];
}

export interface StartupBlockingItem {
  kind: 'message' | 'blocker' | 'handoff';
  id: number;
  task_id: number;
  preview: string;
}

export interface StartupEvidence {
  task_id: number | null;
  latest_working_note_id: number | null;
  attention_observation_ids: number[];
  attention_observation_ids_truncated: boolean;
  hydrate_with: 'get_observations';
}

export interface StartupPanelResult {
  session_id: string;
  agent: string;
  repo_root: string;
  branch: string | null;
  active_task: StartupTask | null;
  ready_task: StartupReadyTask | null;
  active_queen_plan: { plan_slug: string; subtask_index: number; wave_index: number } | null;
  inbox_count: number;
  blocking_items: StartupBlockingItem[];
  claimed_files: string[];
  blocker: string | null;
  next: string;
  evidence: StartupEvidence;
  warnings: string[];
  recommended_next_tool: string | null;
  recommended_next_args: Record<string, unknown> | null;
  copy_paste_next_mcp_calls: string[];
}

const NEXT_RULE =
  'The next step, first match: a pending handoff (accept it), an unread blocking message (read it, ' +
  'reply, mark read), a waiting relay (accept it), an unread needs_reply message, your own live ' +
  'lane (continue its branch: task_note_working), claimable ready work (task_plan_claim_subtask ' +
  'with the exact claim args), stalled lanes holding claims (rescue_stranded_scan), else publish a ' +
  'plan or promote a proposal.';
const ACTIVE_RULE =
  "The active lane is your session's open lane in the repository (any heartbeat) on `branch` when " +
  'given, else the one with the latest file work or heartbeat.';

/** One-payload startup surfaces (startup_panel, bridge_status). */
export interface StartupBackend {
  panel(args: StartupPanelInput): Promise<StartupPanelResult>;
  bridgeStatus(args: BridgeStatusInput): Promise<BridgeStatusResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly startup: StartupBackend };

export const startupPanel = defineTool({
  name: 'startup_panel',
  title: 'Startup panel',
  description: 'A compact startup card.',
  input: StartupPanelInput,
  core: true,
  mutates: false,
  docs: {
    returns:
      '{ session_id, agent, repo_root, branch, active_task: { task_id, branch, title, activity } | ' +
      'null, ready_task: { plan_slug, subtask_index, title, reason, fit_score, file_scope_preview } | ' +
      'null, active_queen_plan: { plan_slug, subtask_index, wave_index } | null, inbox_count, ' +
      'blocking_items: [ { kind, id, task_id, preview } ], claimed_files, blocker, next, evidence: { ' +
      'task_id, latest_working_note_id, attention_observation_ids, ' +
      'attention_observation_ids_truncated, hydrate_with }, warnings, recommended_next_tool, ' +
      'recommended_next_args, copy_paste_next_mcp_calls }',
    notes:
      `Composes hivemind's lanes, attention_inbox and task_ready_for_agent (with auto_claim false: it ` +
      `never claims) for presentation and resume surfaces; agents that need the progressive-disclosure ` +
      `ids should call those tools directly. repo_root defaults like hivemind's. ${ACTIVE_RULE} ` +
      `active_queen_plan is the plan sub-task of the active task. inbox_count sums unread messages, ` +
      `pending handoffs and wakes, and open blockers; blocking_items lists at most 3 (blocking ` +
      `messages, blockers, handoffs). claimed_files: your live claims on the active task (at most 10). ` +
      `${NEXT_RULE} copy_paste_next_mcp_calls are mcp__colony__<tool>(<args>) lines. ready_limit ` +
      `(default 3, max 10) is how many ready sub-tasks are ranked.`,
    example: {
      session_id: 'sess_abc',
      agent: 'codex',
      repo_root: '/abs/repo',
      branch: 'agent/codex/current-work',
      ready_limit: 3,
    },
  },
  handler: (args, b: Host) => b.startup.panel(args),
});

export const BridgeStatusInput = z.strictObject({
  session_id: sessionId,
  agent: agentName,
  repo_root: repoRoot,
  branch: branchName.optional(),
  query: z.string().min(1).max(500).optional(),
});
export type BridgeStatusInput = z.output<typeof BridgeStatusInput>;

export interface BridgeLanePreview {
  branch: string;
  task: string;
  owner: string;
  activity: LaneActivity;
  needs_attention: boolean;
  risk: 'none' | 'stalled' | 'dead';
  source: string;
  locked_file_count: number;
  locked_file_preview: string[];
}

export interface BridgeClaimedFile {
  task_id: number;
  file_path: string;
  by_session_id: string;
  claimed_at: number;
  yours: boolean;
}

export interface BridgeReadyPreview {
  title: string;
  plan_slug: string;
  subtask_index: number;
  reason: string;
  fit_score: number;
  capability_hint: string | null;
  file_count: number;
  file_scope_preview: string[];
}

export interface BridgeStatusResult {
  schema: typeof BRIDGE_STATUS_SCHEMA;
  generated_at: string;
  runtime_source: string;
  hivemind: {
    lane_count: number;
    total_lane_count: number;
    lanes_truncated: boolean;
    needs_attention_count: number;
    counts: Record<LaneActivity, number>;
    lane_preview: BridgeLanePreview[];
  };
  branch: string | null;
  task: string | null;
  blocker: string | null;
  next_action: string;
  next: string;
  evidence: StartupEvidence;
  attention: {
    unread_count: number;
    blocking_count: number;
    blocking: boolean;
    pending_handoff_count: number;
    pending_wake_count: number;
    stalled_lane_count: number;
  };
  attention_counts: {
    lane_needs_attention_count: number;
    pending_handoff_count: number;
    pending_wake_count: number;
    unread_message_count: number;
    stalled_lane_count: number;
    recent_other_claim_count: number;
    blocked: boolean;
  };
  ready_work_count: number;
  ready_work_preview: BridgeReadyPreview[];
  claimed_file_count: number;
  claimed_file_preview: BridgeClaimedFile[];
  claimed_files: BridgeClaimedFile[];
  latest_working_note: { id: number; task_id: number; session_id: string; ts: number; content: string } | null;
}

const CAPS = BRIDGE_PREVIEW_CAPS;

export const bridgeStatus = defineTool({
  name: 'bridge_status',
  title: 'Bridge status',
  description: 'Compact coordination state for OMX HUD displays.',
  input: BridgeStatusInput,
  mutates: false,
  docs: {
    returns:
      '{ schema: "colony.omx_hud_status.v1", generated_at, runtime_source, hivemind: { lane_count, ' +
      'total_lane_count, lanes_truncated, needs_attention_count, counts, lane_preview: [ { branch, ' +
      'task, owner, activity, needs_attention, risk, source, locked_file_count, locked_file_preview } ' +
      '] }, branch, task, blocker, next_action, next, evidence: { task_id, latest_working_note_id, ' +
      'attention_observation_ids, attention_observation_ids_truncated, hydrate_with }, attention: { ' +
      'unread_count, blocking_count, blocking, pending_handoff_count, pending_wake_count, ' +
      'stalled_lane_count }, attention_counts: { lane_needs_attention_count, pending_handoff_count, ' +
      'pending_wake_count, unread_message_count, stalled_lane_count, recent_other_claim_count, blocked ' +
      '}, ready_work_count, ready_work_preview: [ { title, plan_slug, subtask_index, reason, ' +
      'fit_score, capability_hint, file_count, file_scope_preview } ], claimed_file_count, ' +
      'claimed_file_preview: [ { task_id, file_path, by_session_id, claimed_at, yours } ], ' +
      'claimed_files, latest_working_note: { id, task_id, session_id, ts, content } | null }',
    notes:
      `Composes the same lanes, attention_inbox and task_ready_for_agent logic (auto_claim false: it ` +
      `never claims) into a HUD-sized card; no memory hits and no observation bodies ` +
      `(latest_working_note.content is its first 200 characters). runtime_source is colony-session: ` +
      `lanes come from colony's own heartbeats and threads. Previews are capped: hivemind.lane_preview ` +
      `${CAPS.lanes} (lanes needing attention first; lane_count is the preview's length, ` +
      `total_lane_count every live lane; risk is stalled or dead for lanes needing attention, else ` +
      `none), ready_work_preview ${CAPS.ready_work}, claimed_file_preview ${CAPS.claimed_files} and ` +
      `claimed_files ${CAPS.claimed_files_full} (live claims on the active task, anyone's; yours marks ` +
      `the caller's), evidence.attention_observation_ids ${CAPS.ids}. ${ACTIVE_RULE} query, when ` +
      `given, prefers a lane whose task or branch contains it. branch and task are the active lane's ` +
      `(branch falls back to the hint). next is a legacy alias of next_action. ${NEXT_RULE} Hydrate ` +
      `evidence ids with get_observations only when the card is expanded.`,
    example: {
      session_id: 'sess_abc',
      agent: 'codex',
      repo_root: '/abs/repo',
      branch: 'agent/codex/live-task',
      query: 'current task',
    },
  },
  handler: (args, b: Host) => b.startup.bridgeStatus(args),
});

export const startupTools = [startupPanel, bridgeStatus];
