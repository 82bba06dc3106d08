/**
 * @module lanes/activity
 * The activity of a lane at read time, from the injected clock: never stored, so a lane
 * ages through working/thinking -> idle -> stalled -> dead without any job running.
 * Thresholds are the contract's (LANE_*_MINUTES in @swarm/tools).
 */
import {
  LANE_ACTIVITIES,
  LANE_DEAD_MINUTES,
  LANE_LIVE_MINUTES,
  LANE_STALLED_MINUTES,
  LANE_WORKING_MINUTES,
  type LaneActivity,
} from '@swarm/tools';

const MINUTE = 60_000;

export interface LaneSignals {
  /** The session's last sign of life (epoch ms). */
  readonly lastHeartbeatAt: number | null;
  /** When the session ended, if it did. */
  readonly endedAt: number | null;
  /** The session's last file work on the lane's task (edit or claim), if any. */
  readonly lastWorkAt: number | null;
}

/** The lane's activity class at `now`. `unknown` only when there is no heartbeat at all. */
export function laneActivity(lane: LaneSignals, now: number): LaneActivity {
  if (lane.endedAt !== null && lane.endedAt <= now) return 'dead';
  if (lane.lastHeartbeatAt === null) return 'unknown';
  const quiet = Math.max(0, now - lane.lastHeartbeatAt);
  if (quiet >= LANE_DEAD_MINUTES * MINUTE) return 'dead';
  if (quiet >= LANE_STALLED_MINUTES * MINUTE) return 'stalled';
  if (quiet >= LANE_LIVE_MINUTES * MINUTE) return 'idle';
  const worked = lane.lastWorkAt !== null && now - lane.lastWorkAt < LANE_WORKING_MINUTES * MINUTE;
  return worked ? 'working' : 'thinking';
}

/** Whether a lane of this class is someone's live work (others should coordinate with it). */
export function isLiveActivity(activity: LaneActivity): boolean {
  return activity === 'working' || activity === 'thinking' || activity === 'idle';
}

/** A zeroed `counts` object in the contract's key order. */
export function emptyActivityCounts(): Record<LaneActivity, number> {
  return Object.fromEntries(LANE_ACTIVITIES.map((a) => [a, 0])) as Record<LaneActivity, number>;
}

/** "Heartbeat stale for 7m 28s." and the like: the lane's activity in words. */
export function activitySummary(activity: LaneActivity, lane: LaneSignals, now: number): string {
  if (activity === 'unknown') return 'No heartbeat recorded.';
  if (activity === 'dead' && lane.endedAt !== null && lane.endedAt <= now) {
    return `Session ended ${formatAge(now - lane.endedAt)} ago.`;
  }
  const quiet = formatAge(now - (lane.lastHeartbeatAt ?? now));
  switch (activity) {
    case 'working':
      return `Editing files; heartbeat ${quiet} ago.`;
    case 'thinking':
      return `Active without file work; heartbeat ${quiet} ago.`;
    case 'idle':
      return `Quiet; heartbeat ${quiet} ago.`;
    default:
      return `Heartbeat stale for ${quiet}.`;
  }
}

/** 7m 28s, 2h 5m, 45s. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
