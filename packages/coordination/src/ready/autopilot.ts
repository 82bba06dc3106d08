/**
 * @module ready/autopilot
 * task_autopilot_tick: the signals around a session (batons waiting for it, unread
 * messages, ready work, quiet lanes) and the one decision they call for, first match
 * wins: accept a handoff, adopt a relay's claims, read a blocking message, claim ready
 * work, continue the claimed sub-task, or nothing.
 */
import { type AttentionScope, claimedSubtasksInScope, getSession, liveClaimsInScope, quietLanes } from '@swarm/storage';
import {
  AUTOPILOT_IDLE_WAKE_SECONDS,
  type AutopilotDecision,
  type AutopilotSignals,
  type AutopilotTickResult,
  LANE_DEAD_MINUTES,
  type MessageEntry,
  type ReadyForAgentResult,
  STRANDED_AFTER_MINUTES,
  type TaskAutopilotTickInput,
} from '@swarm/tools';
import { LIVE_CLAIM_SCAN } from '../attention/attention-service';
import { stalledLanes } from '../attention/stalled-lanes';
import type { BatonService, PendingBaton } from '../batons/baton-service';
import { agentFamily } from '../batons/targeting';
import type { DomainContext } from '../context';
import type { MessageService } from '../messages/message-service';
import { normalizeRepoRoot } from '../tasks/task-service';
import type { RankedCandidate } from './rank-ready';
import { ref } from './ready-response';

const MINUTE = 60_000;
const SHORT_WAKE_SECONDS = 60;
const WORKING_WAKE_SECONDS = 270;
const LANES_SCANNED = 200;
/** Most claimed sub-tasks read for stranded lanes (as attention_inbox reads them). */
const SUBTASKS_SCANNED = 200;
/** Thread titles that are session-start noise, not abandoned work. */
const DEAD_HEARTBEAT_TITLES = /^\s*(session start|no active swarm|heartbeat)\b/i;

export interface TickSignals {
  readonly counts: AutopilotSignals;
  readonly handoff: PendingBaton | undefined;
  readonly relay: PendingBaton | undefined;
  readonly blocking: MessageEntry | undefined;
}

export async function gatherSignals(
  ctx: DomainContext,
  deps: { readonly batons: BatonService; readonly messages: MessageService },
  args: TaskAutopilotTickInput,
  readyCount: number,
): Promise<TickSignals> {
  const batons = await deps.batons.pendingFor(args.session_id, 50);
  const handoffs = batons.filter((b) => b.kind === 'handoff');
  const relays = batons.filter((b) => b.kind === 'relay');
  // A session never registered has no inbox yet (rather than an error: a first tick may come before task_thread).
  const unread = (await getSession(ctx.store, args.session_id))
    ? await deps.messages.list({
        session_id: args.session_id,
        agent: agentFamily(args.agent),
        unread_only: true,
        limit: 200,
      })
    : [];
  const blocking = unread.filter((m) => m.urgency === 'blocking');
  const lanes = await stalledLaneTitles(ctx, args);
  const dead = lanes.filter(
    (l) => DEAD_HEARTBEAT_TITLES.test(l.title ?? '') || (!l.title?.trim() && l.liveClaims === 0),
  ).length;
  return {
    counts: {
      pending_handoff_count: handoffs.length,
      quota_pending_claim_count: relays.length,
      unread_message_count: unread.length,
      blocking_message_count: blocking.length,
      ready_subtask_count: readyCount,
      stalled_lane_count: lanes.length,
      dead_heartbeat_lane_count: dead,
      actionable_stalled_lane_count: lanes.length - dead,
    },
    handoff: handoffs[0],
    relay: relays[0],
    blocking: blocking[0],
  };
}

/**
 * Other sessions' quiet lanes in scope, read from live state only: lanes whose session
 * is `stalled` (heartbeat 10 to 60 minutes old, from the heartbeat index), and stalled
 * or dead lanes still holding live claims or a claimed sub-task (attention_inbox's
 * stalled lanes). Sessions long gone that hold nothing are not lanes any more, so a
 * store's history never inflates the count.
 */
async function stalledLaneTitles(
  ctx: DomainContext,
  args: TaskAutopilotTickInput,
): Promise<Array<{ title: string | null; liveClaims: number }>> {
  const now = ctx.clock.now();
  const repoRoot = args.repo_root === undefined ? undefined : normalizeRepoRoot(args.repo_root);
  const lanes = new Map<string, { title: string | null; liveClaims: number }>();
  const quiet = await quietLanes(ctx.store, {
    after: now - LANE_DEAD_MINUTES * MINUTE,
    before: now - STRANDED_AFTER_MINUTES * MINUTE,
    excludeSessionId: args.session_id,
    ...(repoRoot === undefined ? {} : { repoRoot }),
    limit: LANES_SCANNED,
  });
  for (const lane of quiet) lanes.set(`${lane.sessionId}\u0000${lane.taskId}`, lane);
  const scope: AttentionScope = { repoRoots: repoRoot === undefined ? null : [repoRoot], taskIds: null };
  const stranded = stalledLanes(
    await liveClaimsInScope(ctx.store, scope, LIVE_CLAIM_SCAN),
    await claimedSubtasksInScope(ctx.store, scope, SUBTASKS_SCANNED),
    args.session_id,
    now,
  );
  for (const lane of stranded) {
    const key = `${lane.session_id}\u0000${lane.task_id}`;
    if (!lanes.has(key)) lanes.set(key, { title: lane.task, liveClaims: lane.live_claim_count });
  }
  return [...lanes.values()].slice(0, LANES_SCANNED);
}

/** The first matching decision. */
export function decideTick(
  now: number,
  args: TaskAutopilotTickInput,
  signals: TickSignals,
  ready: ReadyForAgentResult,
  current: RankedCandidate | null,
): Omit<AutopilotTickResult, 'budget'> {
  const tick = (
    decision: AutopilotDecision,
    reason: string,
    next: { tool: string; args: Record<string, unknown> } | null,
    next_action: string,
    wake: number,
  ): Omit<AutopilotTickResult, 'budget'> => ({
    generated_at: now,
    decision,
    reason,
    next_tool: next?.tool ?? null,
    next_args: next?.args ?? null,
    next_action,
    suggested_wake_seconds: wake,
    signals: signals.counts,
  });
  const { handoff, relay, blocking } = signals;
  if (handoff) {
    return tick(
      'accept_handoff',
      `pending handoff #${handoff.id} from ${handoff.from_agent} on task ${handoff.task_id}: ${handoff.summary.slice(0, 120)}`,
      handoff.accept_with,
      `Accept handoff #${handoff.id} on task ${handoff.task_id} (or decline it with task_decline_handoff).`,
      SHORT_WAKE_SECONDS,
    );
  }
  if (relay) {
    return tick(
      'accept_quota_relay',
      `relay #${relay.id} from ${relay.from_agent} (${relay.from_session_id}) on task ${relay.task_id} waits for someone to adopt its claims`,
      {
        tool: 'task_claim_quota_accept',
        args: {
          task_id: relay.task_id,
          session_id: args.session_id,
          agent: args.agent,
          handoff_observation_id: relay.id,
        },
      },
      `Adopt the stopped work on task ${relay.task_id}: read relay #${relay.id} (its worktree_recipe) with get_observations, then accept.`,
      SHORT_WAKE_SECONDS,
    );
  }
  if (blocking) {
    return tick(
      'reply_blocking_message',
      `blocking message #${blocking.id} from ${blocking.from_agent} on task ${blocking.task_id}; read it before choosing other work`,
      {
        tool: 'task_message_mark_read',
        args: { message_observation_id: blocking.id, session_id: args.session_id },
      },
      `Read blocking message #${blocking.id} (get_observations), reply with task_message, then mark it read.`,
      SHORT_WAKE_SECONDS,
    );
  }
  if (ready.next_tool && ready.claim_args) {
    return tick(
      'claim_ready',
      ready.next_action_reason ?? ready.next_action,
      { tool: ready.next_tool, args: { ...ready.claim_args } },
      ready.next_action,
      SHORT_WAKE_SECONDS,
    );
  }
  if (current) {
    return tick(
      'continue_current',
      `holding claimed sub-task ${ref(current)}; finish or hand off before switching`,
      {
        tool: 'task_plan_complete_subtask',
        args: {
          plan_slug: current.plan_slug,
          subtask_index: current.subtask_index,
          session_id: args.session_id,
          repo_root: current.repo_root,
        },
      },
      `Continue ${ref(current)}; when done call task_plan_complete_subtask with these args and a summary.`,
      WORKING_WAKE_SECONDS,
    );
  }
  const stalled = signals.counts.actionable_stalled_lane_count;
  return tick(
    'no_op',
    stalled > 0 ? `${stalled} actionable stalled lane(s); nothing addressed to you` : 'no pending work; idle',
    null,
    stalled > 0
      ? 'Idle. Stalled lanes exist: review them with rescue_stranded_scan if they block you.'
      : 'Idle. No claimable work; sleep until the next tick.',
    AUTOPILOT_IDLE_WAKE_SECONDS,
  );
}
