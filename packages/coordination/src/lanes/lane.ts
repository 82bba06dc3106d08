/**
 * @module lanes/lane
 * A lane as every reader sees it (one session on one task thread), built from its
 * stored row at read time: owner, task preview, activity from laneActivity, live
 * claims, and whether it needs someone's attention.
 */
import type { LaneRow } from '@swarm/storage';
import type { LaneActivity } from '@swarm/tools';
import { activitySummary, emptyActivityCounts, laneActivity } from './activity';

/** Locked files a lane preview lists. */
export const LOCKED_FILE_PREVIEW = 3;
/** Characters of a lane's task preview. */
const TASK_PREVIEW_CHARS = 80;

/** One session on one task thread, as every lane reader sees it. */
export interface Lane {
  readonly sessionId: string;
  readonly taskId: number;
  /** The agent the session joined the thread as. */
  readonly agent: string;
  readonly ide: string;
  /** `<agent>/<ide>` (the agent twice when the IDE is unknown). */
  readonly owner: string;
  readonly repoRoot: string;
  readonly branch: string;
  readonly title: string | null;
  /** The title (or branch), cut to 80 characters. */
  readonly task: string;
  readonly worktreePath: string | null;
  readonly activity: LaneActivity;
  readonly activitySummary: string;
  readonly lastHeartbeatAt: number;
  readonly lastWorkAt: number | null;
  /** The lane's live claims (active or handoff_pending), most recently refreshed first. */
  readonly claims: ReadonlyArray<{ readonly filePath: string; readonly claimedAt: number }>;
  /** The session holds the thread's plan sub-task claimed. */
  readonly holdsSubtask: boolean;
  /** Stalled or dead while still holding live claims or the claimed sub-task (attention_inbox's stalled lanes). */
  readonly needsAttention: boolean;
}

/** The counts object in contract order. */
export function countActivities(lanes: readonly Lane[]): Record<LaneActivity, number> {
  const counts = emptyActivityCounts();
  for (const lane of lanes) counts[lane.activity] += 1;
  return counts;
}

/** A lane's first locked files, as previews list them. */
export function lockedFilePreview(lane: Lane): string[] {
  return lane.claims.slice(0, LOCKED_FILE_PREVIEW).map((c) => c.filePath);
}

/** A lane's live claims. */
export type LaneClaims = Lane['claims'];

/** The lane of a stored row, its activity read at `now`. */
export function toLane(row: LaneRow, claims: LaneClaims, now: number): Lane {
  const lastWorkAt = maxOrNull(row.lastClaimAt, row.lastEditAt);
  const signals = { lastHeartbeatAt: row.lastHeartbeatAt, endedAt: row.endedAt, lastWorkAt };
  const activity = laneActivity(signals, now);
  const ide = row.ide && row.ide !== 'unknown' ? row.ide : row.agent;
  return {
    sessionId: row.sessionId,
    taskId: row.taskId,
    agent: row.agent,
    ide,
    owner: `${row.agent}/${ide}`,
    repoRoot: row.repoRoot,
    branch: row.branch,
    title: row.title,
    task: preview(row.title?.trim() || row.branch, TASK_PREVIEW_CHARS),
    worktreePath: row.cwd,
    activity,
    activitySummary: activitySummary(activity, signals, now),
    lastHeartbeatAt: row.lastHeartbeatAt,
    lastWorkAt,
    claims,
    holdsSubtask: row.holdsSubtask === 1,
    needsAttention: (activity === 'stalled' || activity === 'dead') && (claims.length > 0 || row.holdsSubtask === 1),
  };
}

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

/** One line, at most `max` characters. */
export function preview(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}
