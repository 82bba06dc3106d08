/**
 * rescue_stranded_scan and rescue_stranded_run: sessions that stopped heartbeating
 * while holding claims are found read-only, then (only with confirm) relayed to any
 * agent with their claims released, without the rescue counting as their heartbeat.
 */
import { getObservation, getSession, releaseLiveClaims } from '@swarm/storage';
import { RELAY_TTL_MINUTES } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_FRESH_MS } from '../src/claims/age';
import { RESCUE_BASE_BRANCH } from '../src/rescue/rescue-service';
import { createFixture, type Fixture, START } from './_fixture';
import { claimArgs, completeArgs, publish } from './_plans';
import { createTeam, type Team } from './_team';

const MINUTE = 60_000;

let fx: Fixture;
let team: Team;
beforeEach(async () => {
  fx = createFixture();
  team = await createTeam(fx);
});
afterEach(() => fx.close());

interface Outcome {
  dry_run: boolean;
  stranded: Array<Record<string, unknown>>;
  rescued: Array<Record<string, unknown> & { task_id: number; session_id: string; relay_observation_id?: number }>;
  remaining: number;
}

/** codex-1 stays alive: it posts at the current time. */
const keepAlive = (sessionId = 'codex-1') =>
  fx.ok('task_post', { task_id: team.taskId, session_id: sessionId, kind: 'note', content: 'still here' });

const scan = (minutes = 10) => fx.ok<Outcome>('rescue_stranded_scan', { stranded_after_minutes: minutes });

describe('rescue_stranded_scan', () => {
  it('reports a quiet session holding claims, changing nothing', async () => {
    await team.claim('claude-1', 'src/a.ts');
    await team.claim('claude-1', 'src/b.ts');
    fx.clock.advance(11 * MINUTE);
    await keepAlive();
    const before = team.counts();
    const outcome = await scan();
    expect(outcome).toEqual({
      dry_run: true,
      stranded: [
        {
          session_id: 'claude-1',
          agent: 'claude',
          last_heartbeat_at: START,
          stale_age_minutes: 11,
          task_ids: [team.taskId],
          held_claim_count: 2,
        },
      ],
      rescued: [
        {
          session_id: 'claude-1',
          agent: 'claude',
          task_id: team.taskId,
          repo_root: team.repo,
          branch: 'main',
          released_claims: ['src/a.ts', 'src/b.ts'],
          inherited_claims: ['src/a.ts', 'src/b.ts'],
          stale_age_minutes: 11,
          blocking_urgency: 'local_claim',
          message_attention_state: 'no_pending_message',
          suggested_action: `rescue_stranded_run relays task ${team.taskId} to any agent and releases 2 claim(s).`,
        },
      ],
      remaining: 0,
      budget: {
        items_available: 1,
        items_returned: 1,
        collapsed_count: 0,
        estimated_tokens_returned: expect.any(Number),
        hydrate_with: 'task_timeline',
        why_collapsed: null,
      },
    });
    expect(team.counts()).toEqual(before);
  });

  it('leaves sessions alone whose heartbeat is within the threshold, or that hold no active claim', async () => {
    await team.claim('claude-1', 'src/a.ts');
    fx.clock.advance(9 * MINUTE);
    expect((await scan()).rescued).toEqual([]);
    expect((await scan(5)).rescued.map((r) => r.session_id)).toEqual(['claude-1']);
    // codex-1 is as quiet but claims nothing.
    expect((await scan(5)).stranded.map((s) => s.session_id)).toEqual(['claude-1']);
  });

  it('does not count claims already waiting on a handoff', async () => {
    await team.claim('claude-1', 'src/a.ts');
    await team.handOff({ transferred_files: ['src/a.ts'] });
    fx.clock.advance(30 * MINUTE);
    expect((await scan()).rescued).toEqual([]);
  });

  it('releases stale claims but lets a relay inherit only fresh ones', async () => {
    await team.claim('claude-1', 'src/old.ts');
    fx.clock.advance(CLAIM_FRESH_MS - 5 * MINUTE);
    await team.claim('claude-1', 'src/new.ts');
    fx.clock.advance(20 * MINUTE);
    const [entry] = (await scan()).rescued;
    expect(entry).toMatchObject({ released_claims: ['src/new.ts', 'src/old.ts'], inherited_claims: ['src/new.ts'] });
  });

  it('orders by stale age, then by the unread messages waiting for the stranded session', async () => {
    const other = await team.join('claude-1', 'claude', 'feature');
    await team.join('codex-2', 'codex', 'feature');
    await fx.ok('task_claim_file', { task_id: other, session_id: 'claude-1', file_path: 'src/x.ts' });
    await team.claim('claude-1', 'src/a.ts');
    fx.clock.advance(MINUTE);
    await team.claim('codex-2', 'src/c.ts');
    fx.clock.advance(MINUTE);
    await fx.ok('task_message', {
      task_id: other,
      session_id: 'codex-2',
      agent: 'codex',
      to_agent: 'claude',
      urgency: 'needs_reply',
      content: 'where is the parser?',
    });
    fx.clock.advance(20 * MINUTE);
    await keepAlive();
    const rescued = (await scan()).rescued;
    expect(rescued.map((r) => [r.session_id, r.task_id, r.stale_age_minutes, r.message_attention_state])).toEqual([
      ['claude-1', other, 22, 'needs_reply_message'],
      ['claude-1', team.taskId, 22, 'no_pending_message'],
      ['codex-2', team.taskId, 20, 'no_pending_message'],
    ]);
  });
});

describe('rescue_stranded_run', () => {
  it('refuses without confirm: true, writing nothing', async () => {
    await team.claim('claude-1', 'src/a.ts');
    fx.clock.advance(11 * MINUTE);
    const before = team.counts();
    for (const args of [{}, { confirm: false }]) {
      const error = await fx.fail('rescue_stranded_run', args);
      expect(error).toMatchObject({ code: 'RESCUE_CONFIRM_REQUIRED', next_tool: 'rescue_stranded_scan' });
    }
    expect(team.counts()).toEqual(before);
  });

  it('relays the stranded task to any agent, releases its claims, and records the rescue', async () => {
    await team.claim('claude-1', 'src/a.ts');
    await team.claim('claude-1', 'src/b.ts');
    fx.clock.advance(11 * MINUTE);
    await keepAlive();
    const now = fx.clock.now();
    const outcome = await fx.ok<Outcome>('rescue_stranded_run', { stranded_after_minutes: 10, confirm: true });
    expect(outcome.dry_run).toBe(false);
    const [entry] = outcome.rescued;
    const relayId = entry?.relay_observation_id as number;
    expect(entry).toMatchObject({
      session_id: 'claude-1',
      task_id: team.taskId,
      released_claims: ['src/a.ts', 'src/b.ts'],
      relay_observation_id: relayId,
      suggested_action: `Accept with task_accept_relay (relay_observation_id ${relayId}) after joining task ${team.taskId}.`,
    });
    expect(team.baton(relayId)).toMatchObject({
      kind: 'relay',
      status: 'pending',
      fromSessionId: 'claude-1',
      fromAgent: 'claude',
      toAgent: 'any',
      expiresAt: now + RELAY_TTL_MINUTES * MINUTE,
    });
    expect(team.baton(relayId).payload).toMatchObject({
      reason: 'stranded',
      base_branch: RESCUE_BASE_BRANCH,
      transferred_files: ['src/a.ts', 'src/b.ts'],
    });
    expect(team.claims('claude-1').map((c) => c.state)).toEqual(['released', 'released']);
    const rescue = getObservation(fx.store, entry?.rescue_observation_id as number);
    expect(rescue).toMatchObject({ kind: 'rescue', sessionId: 'claude-1', taskId: team.taskId, replyTo: relayId });
    expect(rescue?.metadata).toMatchObject({
      relay_observation_id: relayId,
      released_claims: ['src/a.ts', 'src/b.ts'],
    });
    // Written on behalf of the stranded session: no sign of life.
    expect(getSession(fx.store, 'claude-1')?.lastHeartbeatAt).toBe(START);

    expect((await scan()).rescued).toEqual([]);
    const again = await fx.ok<Outcome>('rescue_stranded_run', { confirm: true });
    expect(again.rescued).toEqual([]);

    const accepted = await fx.ok('task_accept_relay', { relay_observation_id: relayId, session_id: 'codex-1' });
    expect(accepted).toEqual({ status: 'accepted' });
    expect(team.claims('codex-1').map((c) => [c.filePath, c.state])).toEqual([
      ['src/a.ts', 'active'],
      ['src/b.ts', 'active'],
    ]);
  });
});

describe('rescue of claimed plan sub-tasks', () => {
  interface PlanList {
    subtasks: Array<{ subtask_index: number; status: string; claimed_by_session_id: string | null }>;
  }
  const statuses = async () =>
    (await fx.ok<PlanList[]>('task_plan_list', { repo_root: team.repo }))[0]?.subtasks.map((s) => [
      s.subtask_index,
      s.status,
      s.claimed_by_session_id,
    ]);

  it('puts blocking stranded sub-tasks first and gives them back to available', async () => {
    await publish(fx, team.repo);
    // codex-1 holds the wave-0 storage sub-task every other one waits on; claude-1 a file elsewhere.
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex'));
    fx.clock.advance(MINUTE);
    await team.claim('claude-1', 'src/a.ts');
    fx.clock.advance(15 * MINUTE);
    await keepAlive('codex-2');

    const rescued = (await scan()).rescued;
    expect(rescued.map((r) => [r.session_id, r.blocking_urgency, r.stale_age_minutes])).toEqual([
      ['codex-1', 'blocks_downstream', 16],
      ['claude-1', 'local_claim', 15],
    ]);
    expect(rescued[0]).toMatchObject({
      plan_slug: 'add-widget-page',
      subtask_index: 0,
      wave_index: 0,
      blocked_downstream_count: 3,
      releases_subtask: true,
      released_claims: ['packages/storage/src/widgets.ts'],
    });
    expect(rescued[0]?.suggested_action).toMatch(/^Blocks 3 downstream sub-task\(s\): message the stalled owner/);

    await fx.ok('rescue_stranded_run', { confirm: true });
    expect(await statuses()).toEqual([
      [0, 'available', null],
      [1, 'blocked', null],
      [2, 'blocked', null],
      [3, 'blocked', null],
    ]);
    // The sub-task is claimable again, by anyone.
    await fx.ok('task_plan_claim_subtask', claimArgs(0, 'codex-2', 'codex'));
    expect(await statuses()).toContainEqual([0, 'claimed', 'codex-2']);
  });

  it('rescues a claimed sub-task even when its session holds no file claim on it any more', async () => {
    await publish(fx, team.repo);
    const claimed = await fx.ok<{ task_id: number }>('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex'));
    await fx.store.write(() =>
      releaseLiveClaims(fx.store, claimed.task_id, 'codex-1', ['packages/storage/src/widgets.ts']),
    );
    fx.clock.advance(11 * MINUTE);
    const [entry] = (await scan()).rescued;
    expect(entry).toMatchObject({ session_id: 'codex-1', released_claims: [], releases_subtask: true });
    await fx.ok('rescue_stranded_run', { confirm: true });
    expect((await statuses())?.[0]).toEqual([0, 'available', null]);
  });

  it('does not count completed downstream sub-tasks as blocked', async () => {
    await publish(fx, team.repo, {
      subtasks: [
        { title: 'Core', description: 'c', file_scope: ['src/core.ts'] },
        { title: 'Edge', description: 'e', file_scope: ['src/edge.ts'], depends_on: [0] },
        { title: 'Verify both', description: 'v', file_scope: ['test/all.test.ts'], depends_on: [1] },
      ],
    });
    const core = await fx.ok<{ task_id: number }>('task_plan_claim_subtask', claimArgs(0, 'codex-1', 'codex'));
    await fx.ok('task_plan_complete_subtask', completeArgs(0, 'codex-1'));
    await fx.ok('task_plan_claim_subtask', claimArgs(1, 'codex-2', 'codex'));
    await fx.ok('task_plan_complete_subtask', completeArgs(1, 'codex-2'));
    // Back on the completed core thread for a follow-up fix, then gone.
    await fx.ok('task_claim_file', { task_id: core.task_id, session_id: 'codex-1', file_path: 'src/core.ts' });
    fx.clock.advance(11 * MINUTE);
    const [entry] = (await scan()).rescued.filter((r) => r.session_id === 'codex-1');
    expect(entry).toMatchObject({
      subtask_index: 0,
      blocked_downstream_count: 1,
      blocking_urgency: 'blocks_downstream',
    });
    expect(entry?.releases_subtask).toBeUndefined();
  });
});
