/**
 * Quota claims (task_claim_quota_accept, task_claim_quota_decline,
 * task_claim_quota_release_expired): the handoff_pending claims a relay or handoff
 * leaves behind, adopted by a replacement session, re-addressed to any agent, or
 * weakened once their time is up. Audit rows stay.
 */
import { getObservation, repliesTo } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';
import { createTeam, type Team } from './_team';

const MINUTE = 60_000;

let fx: Fixture;
let team: Team;
let relayId: number;
beforeEach(async () => {
  fx = createFixture();
  team = await createTeam(fx);
  await team.claim('claude-1', 'src/a.ts');
  await team.claim('claude-1', 'src/b.ts');
  relayId = (await team.relay({ to_agent: 'codex', expires_in_minutes: 30 })).relay_observation_id;
});
afterEach(() => fx.close());

const call = (tool: string, args: Record<string, unknown>) =>
  fx.ok<Record<string, unknown>>(tool, { task_id: team.taskId, ...args });
const audit = (id: number) => repliesTo(fx.store, id).map((r) => getObservation(fx.store, r)?.kind);

describe('task_claim_quota_accept', () => {
  it('adopts every pending claim of the baton named by id', async () => {
    const result = await call('task_claim_quota_accept', {
      session_id: 'codex-1',
      agent: 'codex',
      handoff_observation_id: relayId,
    });
    expect(result).toEqual({
      status: 'accepted',
      handoff_observation_id: relayId,
      task_id: team.taskId,
      claimed_files: ['src/a.ts', 'src/b.ts'],
    });
    expect(team.baton(relayId)).toMatchObject({ status: 'accepted', resolvedBySessionId: 'codex-1' });
    expect(team.claims('codex-1').map((c) => [c.filePath, c.state])).toEqual([
      ['src/a.ts', 'active'],
      ['src/b.ts', 'active'],
    ]);
    expect(team.claims('claude-1').map((c) => c.state)).toEqual(['released', 'released']);
    expect(audit(relayId)).toEqual(['quota_accepted']);
  });

  it('finds the baton by one of its files, absolute or relative', async () => {
    const result = await call('task_claim_quota_accept', { session_id: 'codex-2', file_path: `${team.repo}/src/b.ts` });
    expect(result).toMatchObject({ status: 'accepted', handoff_observation_id: relayId });
  });

  it('refuses bad references and wrong acceptors, writing nothing', async () => {
    const other = await team.join('codex-1', 'codex', 'other-branch');
    await fx.ok('task_claim_file', { task_id: other, session_id: 'codex-1', file_path: 'x.ts' });
    const elsewhere = (
      await fx.ok<{ relay_observation_id: number }>('task_relay', {
        task_id: other,
        session_id: 'codex-1',
        reason: 'rate_limit',
        one_line: 'x',
        base_branch: 'main',
      })
    ).relay_observation_id;
    await team.join('claude-2', 'claude');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ session_id: 'codex-1' }, 'INVALID_PARAMETERS'],
      [{ session_id: 'codex-1', handoff_observation_id: elsewhere }, 'OBSERVATION_NOT_ON_TASK'],
      [{ session_id: 'codex-1', handoff_observation_id: 99_999 }, 'OBSERVATION_NOT_FOUND'],
      [{ session_id: 'codex-1', file_path: 'src/unclaimed.ts' }, 'OBSERVATION_NOT_FOUND'],
      [{ session_id: 'codex-1', file_path: '../out.ts' }, 'PATH_OUTSIDE_REPO'],
      [{ session_id: 'codex-1', agent: 'claude', handoff_observation_id: relayId }, 'INVALID_PARAMETERS'],
      [{ session_id: 'claude-2', handoff_observation_id: relayId }, 'NOT_TARGET_AGENT'],
      [{ session_id: 'claude-1', handoff_observation_id: relayId }, 'NOT_TARGET_SESSION'],
      [{ session_id: 'ghost', handoff_observation_id: relayId }, 'NOT_PARTICIPANT'],
      [{ session_id: 'codex-1', task_id: 404, handoff_observation_id: relayId }, 'TASK_NOT_FOUND'],
    ];
    for (const [args, code] of cases) {
      const before = team.counts();
      const error = await fx.fail('task_claim_quota_accept', { task_id: team.taskId, ...args });
      expect(error.code, JSON.stringify(args)).toBe(code);
      expect(team.counts()).toEqual(before);
    }
  });

  it('past the TTL: HANDOFF_EXPIRED, and the baton is expired', async () => {
    fx.clock.advance(30 * MINUTE);
    const error = await fx.fail('task_claim_quota_accept', {
      task_id: team.taskId,
      session_id: 'codex-1',
      file_path: 'src/a.ts',
    });
    expect(error.code).toBe('HANDOFF_EXPIRED');
    expect(team.baton(relayId).status).toBe('expired');
    expect(audit(relayId)).toEqual(['relay_expired']);
  });
});

describe('task_claim_quota_decline', () => {
  it('re-addresses the baton to any agent without cancelling it, so another agent can adopt it', async () => {
    const result = await call('task_claim_quota_decline', {
      session_id: 'codex-1',
      file_path: 'src/a.ts',
      reason: 'outside this worktree',
    });
    expect(result).toEqual({ status: 'pending', handoff_observation_id: relayId, to_agent: 'any' });
    expect(team.baton(relayId)).toMatchObject({ status: 'pending', toAgent: 'any', toSessionId: null });
    expect(team.claims('claude-1').map((c) => c.state)).toEqual(['handoff_pending', 'handoff_pending']);
    expect(getObservation(fx.store, repliesTo(fx.store, relayId)[0]!)).toMatchObject({
      kind: 'quota_declined',
      metadata: { previous_to_agent: 'codex', reason: 'outside this worktree' },
    });
    await team.join('claude-2', 'claude');
    expect(
      await call('task_claim_quota_accept', { session_id: 'claude-2', handoff_observation_id: relayId }),
    ).toMatchObject({ status: 'accepted' });
  });

  it('refuses a non-target and an expired baton', async () => {
    await team.join('claude-2', 'claude');
    const before = team.counts();
    const notFor = await fx.fail('task_claim_quota_decline', {
      task_id: team.taskId,
      session_id: 'claude-2',
      handoff_observation_id: relayId,
    });
    expect(notFor.code).toBe('NOT_TARGET_AGENT');
    expect(team.counts()).toEqual(before);
    fx.clock.advance(31 * MINUTE);
    const expired = await fx.fail('task_claim_quota_decline', {
      task_id: team.taskId,
      session_id: 'codex-1',
      handoff_observation_id: relayId,
    });
    expect(expired.code).toBe('HANDOFF_EXPIRED');
    expect(team.baton(relayId).status).toBe('expired');
  });
});

describe('task_claim_quota_release_expired', () => {
  it('writes nothing while nothing is overdue', async () => {
    const before = team.counts();
    fx.clock.advance(30 * MINUTE - 1);
    expect(await call('task_claim_quota_release_expired', { session_id: 'codex-1' })).toEqual({
      expired_observation_ids: [],
      weak_expired_files: [],
    });
    expect(team.counts()).toEqual(before);
  });

  it('expires overdue batons of the task and weakens their claims, keeping the audit rows', async () => {
    const handoff = await team.handOff({ transferred_files: ['src/c.ts'], expires_in_minutes: 60 });
    fx.clock.advance(30 * MINUTE);
    expect(await call('task_claim_quota_release_expired', { session_id: 'codex-1' })).toEqual({
      expired_observation_ids: [relayId],
      weak_expired_files: ['src/a.ts', 'src/b.ts'],
    });
    expect(team.baton(relayId).status).toBe('expired');
    expect(team.baton(handoff).status).toBe('pending');
    expect(team.claims('claude-1').map((c) => [c.filePath, c.state])).toEqual([
      ['src/a.ts', 'weak_expired'],
      ['src/b.ts', 'weak_expired'],
    ]);
    expect(audit(relayId)).toEqual(['relay_expired']);
    fx.clock.advance(30 * MINUTE);
    expect(await call('task_claim_quota_release_expired', { session_id: 'claude-1', file_path: 'src/c.ts' })).toEqual({
      expired_observation_ids: [],
      weak_expired_files: [],
    });
    expect(
      await call('task_claim_quota_release_expired', { session_id: 'claude-1', handoff_observation_id: handoff }),
    ).toEqual({ expired_observation_ids: [handoff], weak_expired_files: [] });
  });

  it('narrows the sweep to one file’s baton', async () => {
    await team.claim('claude-1', 'src/c.ts');
    const handoff = await team.handOff({ transferred_files: ['src/c.ts'], expires_in_minutes: 30 });
    fx.clock.advance(30 * MINUTE);
    expect(await call('task_claim_quota_release_expired', { session_id: 'codex-1', file_path: 'src/c.ts' })).toEqual({
      expired_observation_ids: [handoff],
      weak_expired_files: ['src/c.ts'],
    });
    expect(team.baton(relayId).status).toBe('pending');
  });

  it('refuses a session that has not joined the task', async () => {
    await team.join('outsider', 'codex', 'elsewhere');
    fx.clock.advance(30 * MINUTE);
    const before = team.counts();
    const error = await fx.fail('task_claim_quota_release_expired', { task_id: team.taskId, session_id: 'outsider' });
    expect(error.code).toBe('NOT_PARTICIPANT');
    expect(team.counts()).toEqual(before);
  });
});
