/**
 * @module liveness/liveness
 * Seed 003's liveness rules as one pure decision per check: given an agent's last
 * heartbeat (every tool call and model turn counts, inventory 1.28 #22) and what was
 * already done in the current idle episode, which actions are due now. Idle nudges: the
 * first after `idle_nudge_after_secs`, then one per `idle_nudge_interval_secs`, at most
 * `max_nudges` per episode; one idle warning after `idle_warn_after_secs`; one stall
 * report after `stall_timeout_secs` (plus an interrupt when `auto_interrupt_stalled`).
 * A heartbeat newer than the episode's start begins a new episode (everything resets).
 * A null threshold turns its action off. Time comes from the caller's clock.
 */
import type { ResolvedLiveness } from '../settings/resolved.js';

export interface LivenessEpisode {
  /** The heartbeat the episode counts from (epoch ms). */
  readonly since: number;
  readonly nudges: number;
  readonly last_nudge_at: number | null;
  readonly warned: boolean;
  readonly stall_reported: boolean;
}

export type LivenessAction = 'nudge' | 'idle_warning' | 'stall_detected' | 'interrupt';

export interface LivenessDecision {
  readonly actions: readonly LivenessAction[];
  /** The episode after the actions are taken: keep it for the next check. */
  readonly episode: LivenessEpisode;
  readonly idle_secs: number;
}

export function newEpisode(since: number): LivenessEpisode {
  return { since, nudges: 0, last_nudge_at: null, warned: false, stall_reported: false };
}

export function checkLiveness(
  config: ResolvedLiveness,
  lastHeartbeat: number,
  previous: LivenessEpisode | null,
  now: number,
): LivenessDecision {
  let episode = previous && previous.since >= lastHeartbeat ? previous : newEpisode(lastHeartbeat);
  const idleMs = Math.max(0, now - lastHeartbeat);
  const idle_secs = Math.floor(idleMs / 1000);
  if (!config.enabled) return { actions: [], episode, idle_secs };
  const actions: LivenessAction[] = [];
  const after = config.idle_nudge_after_secs;
  if (after !== null && idleMs >= after * 1000 && episode.nudges < config.max_nudges) {
    const interval = config.idle_nudge_interval_secs;
    const due = episode.last_nudge_at === null || (interval !== null && now - episode.last_nudge_at >= interval * 1000);
    if (due) {
      actions.push('nudge');
      episode = { ...episode, nudges: episode.nudges + 1, last_nudge_at: now };
    }
  }
  if (config.idle_warn_after_secs !== null && idleMs >= config.idle_warn_after_secs * 1000 && !episode.warned) {
    actions.push('idle_warning');
    episode = { ...episode, warned: true };
  }
  if (config.stall_timeout_secs !== null && idleMs >= config.stall_timeout_secs * 1000 && !episode.stall_reported) {
    actions.push('stall_detected');
    if (config.auto_interrupt_stalled) actions.push('interrupt');
    episode = { ...episode, stall_reported: true };
  }
  return { actions, episode, idle_secs };
}
