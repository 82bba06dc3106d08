/**
 * @module attention/stalled-lanes
 * Lanes (one session on one thread) of other sessions that went quiet while still
 * holding work: active file claims or a claimed plan sub-task. Read from live state
 * only (live claims, claimed sub-tasks); activity is the lanes' one definition
 * (laneActivity), and only `stalled` and `dead` lanes are kept. Each comes with what to
 * do about it: inspect, take over (rescue relays it), or ignore.
 */
import type { AttentionClaim, AttentionSubtask } from '@swarm/storage';
import type { AttentionLaneAction, AttentionStalledLane } from '@swarm/tools';
import { activitySummary, laneActivity } from '../lanes/activity';
import { compactLine } from '../tasks/post-routing';

const MINUTE = 60_000;
const TASK_PREVIEW_CHARS = 80;
export const STALLED_LANE_NEXT_ACTION = 'Inspect lane evidence, then take over or ignore if already cleaned up.';

interface LaneDraft {
  sessionId: string;
  taskId: number;
  agent: string;
  ide: string;
  repoRoot: string;
  branch: string;
  task: string;
  cwd: string | null;
  lastHeartbeatAt: number;
  endedAt: number | null;
  liveClaims: number;
  lastWorkAt: number;
  observationId: number;
  subtask: { plan_slug: string; subtask_index: number } | null;
}

type Holder = Pick<AttentionClaim, 'sessionId' | 'taskId' | 'agent' | 'ide' | 'repoRoot' | 'branch'> &
  Pick<AttentionClaim, 'lastHeartbeatAt' | 'endedAt' | 'cwd'>;

function draft(holder: Holder, task: string, at: number, observationId: number): LaneDraft {
  return {
    sessionId: holder.sessionId,
    taskId: holder.taskId,
    agent: holder.agent,
    ide: holder.ide,
    repoRoot: holder.repoRoot,
    branch: holder.branch,
    task,
    cwd: holder.cwd,
    lastHeartbeatAt: holder.lastHeartbeatAt,
    endedAt: holder.endedAt,
    liveClaims: 0,
    lastWorkAt: at,
    observationId,
    subtask: null,
  };
}

/**
 * Every stalled or dead lane of a session other than the reader's that holds active
 * claims or a claimed sub-task; most recently heard from first, then by thread.
 * handoff_pending claims do not count: they already wait on a baton.
 */
export function stalledLanes(
  claims: readonly AttentionClaim[],
  subtasks: readonly AttentionSubtask[],
  readerSessionId: string,
  now: number,
): AttentionStalledLane[] {
  const lanes = new Map<string, LaneDraft>();
  const key = (sessionId: string, taskId: number) => `${sessionId}\u0000${taskId}`;
  for (const claim of claims) {
    if (claim.sessionId === readerSessionId || claim.state !== 'active') continue;
    const k = key(claim.sessionId, claim.taskId);
    let lane = lanes.get(k);
    if (!lane) {
      lane = draft(claim, claim.title?.trim() || claim.branch, claim.refreshedAt, claim.observationId);
      lanes.set(k, lane);
    }
    lane.liveClaims += 1;
    if (claim.refreshedAt > lane.lastWorkAt) {
      lane.lastWorkAt = claim.refreshedAt;
      lane.observationId = claim.observationId;
    }
  }
  for (const sub of subtasks) {
    if (sub.sessionId === readerSessionId) continue;
    const k = key(sub.sessionId, sub.taskId);
    let lane = lanes.get(k);
    if (!lane) {
      lane = draft(sub, sub.title, sub.claimedAt, sub.observationId);
      lanes.set(k, lane);
    }
    lane.task = sub.title;
    lane.subtask = { plan_slug: sub.planSlug, subtask_index: sub.subtaskIndex };
    if (sub.claimedAt > lane.lastWorkAt) {
      lane.lastWorkAt = sub.claimedAt;
      lane.observationId = sub.observationId;
    }
  }
  const out: Array<AttentionStalledLane & { readonly heard: number }> = [];
  for (const lane of lanes.values()) {
    const signals = { lastHeartbeatAt: lane.lastHeartbeatAt, endedAt: lane.endedAt, lastWorkAt: lane.lastWorkAt };
    const activity = laneActivity(signals, now);
    if (activity !== 'stalled' && activity !== 'dead') continue;
    const ide = lane.ide && lane.ide !== 'unknown' ? lane.ide : lane.agent;
    out.push({
      heard: lane.lastHeartbeatAt,
      repo_root: lane.repoRoot,
      branch: lane.branch,
      task: compactLine(lane.task, TASK_PREVIEW_CHARS),
      task_id: lane.taskId,
      owner: `${lane.agent}/${ide}`,
      session_id: lane.sessionId,
      activity,
      activity_summary: activitySummary(activity, signals, now),
      worktree_path: lane.cwd,
      live_claim_count: lane.liveClaims,
      plan_subtask: lane.subtask,
      observation_id: lane.observationId,
      next_action: STALLED_LANE_NEXT_ACTION,
      suggested_actions: laneActions(lane, now),
    });
  }
  return out
    .sort((a, b) => b.heard - a.heard || a.task_id - b.task_id || a.session_id.localeCompare(b.session_id))
    .map(({ heard: _heard, ...lane }) => lane);
}

/** Inspect (the thread; git status when the worktree is known), take over (rescue), or ignore. */
function laneActions(lane: LaneDraft, now: number): AttentionLaneAction[] {
  // rescue_stranded_run takes sessions quiet for MORE than N minutes: one less than this lane's quiet time.
  const quietMinutes = Math.max(1, Math.ceil((now - lane.lastHeartbeatAt) / MINUTE) - 1);
  return [
    {
      action: 'inspect',
      reason: 'Read the thread (and worktree) before taking ownership.',
      tool: 'task_timeline',
      args: { task_id: lane.taskId },
      ...(lane.cwd ? { command: `git -C ${shellWord(lane.cwd)} status --short --branch` } : {}),
    },
    {
      action: 'takeover',
      reason: 'Owner stalled or dead: rescue relays its work; accept the relay to take over.',
      tool: 'rescue_stranded_run',
      args: { stranded_after_minutes: quietMinutes, confirm: true },
    },
    { action: 'ignore', reason: 'Only once branch/PR/task evidence shows the lane is closed.' },
  ];
}

/** A path as one shell word: as is when plain, else double-quoted. */
function shellWord(path: string): string {
  return /^[\w./@+-]+$/.test(path) ? path : JSON.stringify(path);
}
