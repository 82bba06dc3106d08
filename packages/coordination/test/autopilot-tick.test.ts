/**
 * task_autopilot_tick: one stateless decision per call, first match wins (handoff,
 * relay, blocking message, ready work, current sub-task, nothing), with the signals
 * behind it and a sleep hint. It never claims or marks anything itself.
 */
import { countObservations, countSubtaskClaims } from '@swarm/storage';
import { AUTOPILOT_IDLE_WAKE_SECONDS } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';
import { claimArgs, publish } from './_plans';
import { createTeam, type Team } from './_team';

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
type Tick = any;
const MINUTE = 60_000;

let fx: Fixture;
let team: Team;
beforeEach(async () => {
  fx = createFixture();
  team = await createTeam(fx);
});
afterEach(() => fx.close());

const tick = (session_id = 'codex-1', agent = 'codex') =>
  fx.ok<Tick>('task_autopilot_tick', { session_id, agent, repo_root: team.repo });
const written = () => ({ observations: countObservations(fx.store), claims: countSubtaskClaims(fx.store) });
const ZERO = {
  pending_handoff_count: 0,
  quota_pending_claim_count: 0,
  unread_message_count: 0,
  blocking_message_count: 0,
  ready_subtask_count: 0,
  stalled_lane_count: 0,
  dead_heartbeat_lane_count: 0,
  actionable_stalled_lane_count: 0,
};

describe('task_autopilot_tick', () => {
  it('idles with nothing to do: no_op, null next call, the long sleep', async () => {
    expect((await tick('never-registered')).decision).toBe('no_op');
    expect(await tick()).toEqual({
      generated_at: START,
      decision: 'no_op',
      reason: 'no pending work; idle',
      next_tool: null,
      next_args: null,
      next_action: 'Idle. No claimable work; sleep until the next tick.',
      suggested_wake_seconds: AUTOPILOT_IDLE_WAKE_SECONDS,
      signals: ZERO,
      budget: {
        items_available: 0,
        items_returned: 0,
        collapsed_count: 0,
        estimated_tokens_returned: expect.any(Number),
        hydrate_with: 'attention_inbox',
        why_collapsed: null,
      },
    });
  });

  it('advises claiming ready work with the exact claim args, without claiming', async () => {
    await publish(fx, team.repo);
    const before = written();
    const result = await tick();
    expect(result).toMatchObject({
      decision: 'claim_ready',
      reason:
        'Claim add-widget-page/sub-0: it is unclaimed, dependencies are met, and it is the highest-ranked claimable ready item.',
      next_tool: 'task_plan_claim_subtask',
      next_args: { plan_slug: 'add-widget-page', subtask_index: 0, session_id: 'codex-1', agent: 'codex' },
      suggested_wake_seconds: 60,
      signals: { ...ZERO, ready_subtask_count: 1 },
    });
    expect(written()).toEqual(before);
    await fx.ok(result.next_tool, result.next_args);
    expect(countSubtaskClaims(fx.store, 'active')).toBe(1);
  });

  it('says to continue the claimed sub-task, with complete args', async () => {
    await publish(fx, team.repo);
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex'));
    expect(await tick()).toMatchObject({
      decision: 'continue_current',
      next_tool: 'task_plan_complete_subtask',
      next_args: { plan_slug: 'add-widget-page', subtask_index: 0, session_id: 'codex-1', repo_root: team.repo },
      suggested_wake_seconds: 270,
    });
  });

  it('puts a pending handoff first, then a relay, then a blocking message, then ready work', async () => {
    await publish(fx, team.repo);
    await team.claim('claude-1', 'src/a.ts');
    await fx.ok('task_message', {
      task_id: team.taskId,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      to_session_id: 'codex-1',
      urgency: 'blocking',
      content: 'stop: the schema changed',
    });
    const blocking = await tick();
    expect(blocking).toMatchObject({
      decision: 'reply_blocking_message',
      next_tool: 'task_message_mark_read',
      next_args: { message_observation_id: expect.any(Number), session_id: 'codex-1' },
      signals: { unread_message_count: 1, blocking_message_count: 1, ready_subtask_count: 1 },
    });

    const relay = await team.relay({ to_agent: 'codex' });
    expect(await tick()).toMatchObject({
      decision: 'accept_quota_relay',
      next_tool: 'task_claim_quota_accept',
      next_args: {
        task_id: team.taskId,
        session_id: 'codex-1',
        agent: 'codex',
        handoff_observation_id: relay.relay_observation_id,
      },
      signals: { quota_pending_claim_count: 1 },
    });

    const handoff = await team.handOff({ transferred_files: [] });
    const first = await tick();
    expect(first).toMatchObject({
      decision: 'accept_handoff',
      next_tool: 'task_accept_handoff',
      next_args: { handoff_observation_id: handoff, session_id: 'codex-1' },
      suggested_wake_seconds: 60,
      signals: { pending_handoff_count: 1, quota_pending_claim_count: 1, blocking_message_count: 1 },
    });
    // The advice works as given.
    await fx.ok(first.next_tool, first.next_args);
    expect((await tick()).decision).toBe('accept_quota_relay');
  });

  it('counts quiet lanes, telling session-start noise from stalled work', async () => {
    await team.claim('claude-1', 'src/a.ts');
    await fx.ok('task_thread', {
      repo_root: team.repo,
      branch: 'noise',
      title: 'Session start: nothing yet',
      session_id: 'codex-2',
      agent: 'codex',
    });
    fx.clock.advance(11 * MINUTE);
    const result = await tick();
    // Quiet lanes: claude-1 on main (holds a claim), codex-2 on main and on the noise thread.
    expect(result.signals).toMatchObject({
      stalled_lane_count: 3,
      dead_heartbeat_lane_count: 2,
      actionable_stalled_lane_count: 1,
    });
    expect(result.decision).toBe('no_op');
    expect(result.next_action).toBe(
      'Idle. Stalled lanes exist: review them with rescue_stranded_scan if they block you.',
    );
  });

  it('keeps dead lanes only while they hold work: sessions long gone never inflate the count', async () => {
    await team.claim('claude-1', 'src/a.ts');
    await team.join('cursor-9', 'cursor', 'old/finished');
    fx.clock.advance(2 * 60 * MINUTE);
    // Every other session is dead now; only claude-1's lane still holds something (its claim).
    const result = await tick();
    expect(result.signals).toMatchObject({
      stalled_lane_count: 1,
      dead_heartbeat_lane_count: 0,
      actionable_stalled_lane_count: 1,
    });
    // The same lane attention_inbox lists as stalled.
    const inbox = await fx.ok<Tick>('attention_inbox', { session_id: 'codex-1', agent: 'codex', repo_root: team.repo });
    expect(inbox.summary.stalled_lane_count).toBe(1);
    expect(inbox.stalled_lanes.map((l: { session_id: string }) => l.session_id)).toEqual(['claude-1']);
  });
});
