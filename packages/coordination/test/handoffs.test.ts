/**
 * Handoffs (task_hand_off, task_accept_handoff, task_decline_handoff): the baton row
 * and its audit trail, claims that wait on it and move exactly once, targeting by
 * agent family and session, expiry from the manual clock, and refusals that write
 * nothing.
 */
import { getObservation, repliesTo } from '@swarm/storage';
import { HANDOFF_TTL_MINUTES } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';
import { createTeam, type Team } from './_team';

const MINUTE = 60_000;

let fx: Fixture;
let team: Team;
beforeEach(async () => {
  fx = createFixture();
  team = await createTeam(fx);
});
afterEach(() => fx.close());

const accept = (id: number, session_id: string) =>
  fx.ok<Record<string, unknown>>('task_accept_handoff', { handoff_observation_id: id, session_id });
const acceptFails = (id: number, session_id: string) =>
  fx.fail('task_accept_handoff', { handoff_observation_id: id, session_id });
const decline = (id: number, session_id: string, reason?: string) =>
  fx.ok<Record<string, unknown>>('task_decline_handoff', { handoff_observation_id: id, session_id, reason });

/** Runs a refused call and checks it wrote nothing. */
async function refused(tool: string, args: Record<string, unknown>): Promise<string> {
  const before = team.counts();
  const error = await fx.fail(tool, args);
  expect(team.counts()).toEqual(before);
  return error.code;
}

describe('task_hand_off', () => {
  it('answers { handoff_observation_id, status: pending } and writes the baton with its observation', async () => {
    await team.claim('claude-1', 'src/a.ts');
    await team.claim('claude-1', 'src/keep.ts');
    fx.clock.advance(7);
    const result = await fx.ok('task_hand_off', {
      task_id: team.taskId,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      summary: 'Parser landed.',
      next_steps: ['wire the CLI'],
      blockers: ['flaky test'],
      transferred_files: [`${team.repo}/src/a.ts`, 'src/b.ts', './src/a.ts'],
    });
    const id = (result as { handoff_observation_id: number }).handoff_observation_id;
    expect(result).toEqual({ handoff_observation_id: id, status: 'pending' });
    expect(team.baton(id)).toMatchObject({
      taskId: team.taskId,
      kind: 'handoff',
      fromSessionId: 'claude-1',
      fromAgent: 'claude',
      toAgent: 'codex',
      toSessionId: null,
      status: 'pending',
      summary: 'Parser landed.',
      payload: { next_steps: ['wire the CLI'], blockers: ['flaky test'], transferred_files: ['src/a.ts', 'src/b.ts'] },
      createdAt: START + 7,
      expiresAt: START + 7 + HANDOFF_TTL_MINUTES * MINUTE,
    });
    expect(getObservation(fx.store, id)).toMatchObject({
      kind: 'handoff',
      sessionId: 'claude-1',
      content: 'Parser landed.\nNext steps:\n- wire the CLI\nBlockers:\n- flaky test\nFiles:\n- src/a.ts\n- src/b.ts',
    });
    const [a, keep] = team.claims('claude-1');
    expect(a).toMatchObject({
      filePath: 'src/a.ts',
      state: 'handoff_pending',
      batonId: id,
      expiresAt: START + 7 + 120 * MINUTE,
    });
    expect(keep).toMatchObject({ filePath: 'src/keep.ts', state: 'active', batonId: null });
  });

  it('takes expires_in_minutes up to 1440', async () => {
    const id = await team.handOff({ expires_in_minutes: 1440 });
    expect(team.baton(id).expiresAt).toBe(START + 1440 * MINUTE);
  });

  describe('refuses bad input and writes nothing', () => {
    const base = () => ({ task_id: team.taskId, session_id: 'claude-1', to_agent: 'codex', summary: 's' });
    const cases: Array<[string, () => Record<string, unknown>, string]> = [
      ['an unknown task', () => ({ task_id: 999 }), 'TASK_NOT_FOUND'],
      ['an unknown session (it has joined nothing)', () => ({ session_id: 'ghost' }), 'NOT_PARTICIPANT'],
      ['an unknown to_session_id', () => ({ to_session_id: 'ghost' }), 'SESSION_NOT_FOUND'],
      ['a handoff to yourself', () => ({ to_session_id: 'claude-1' }), 'INVALID_PARAMETERS'],
      ['an agent other than the one joined as', () => ({ agent: 'codex' }), 'INVALID_PARAMETERS'],
      ['a file outside the repository', () => ({ transferred_files: ['ok.ts', '../../etc/x'] }), 'PATH_OUTSIDE_REPO'],
      ['a to_agent outside claude|codex|any', () => ({ to_agent: 'gemini' }), 'INVALID_PARAMETERS'],
      ['expires_in_minutes past 1440', () => ({ expires_in_minutes: 1441 }), 'INVALID_PARAMETERS'],
      ['an oversize summary', () => ({ summary: 'x'.repeat(2001) }), 'INVALID_PARAMETERS'],
      ['too many next steps', () => ({ next_steps: Array.from({ length: 21 }, () => 'x') }), 'INVALID_PARAMETERS'],
    ];
    for (const [name, args, code] of cases) {
      it(`${name}: ${code}`, async () => {
        expect(await refused('task_hand_off', { ...base(), ...args() })).toBe(code);
      });
    }

    it('a sender that has not joined the task: NOT_PARTICIPANT', async () => {
      await fx.ok('task_thread', { repo_root: team.repo, branch: 'other', session_id: 'outsider', agent: 'claude' });
      expect(await refused('task_hand_off', { ...base(), session_id: 'outsider' })).toBe('NOT_PARTICIPANT');
    });
  });
});

describe('task_accept_handoff', () => {
  it('moves the transferred claims to the acceptor in one step and audits it', async () => {
    await team.claim('claude-1', 'src/a.ts');
    const id = await team.handOff({ transferred_files: ['src/a.ts', 'src/new.ts'] });
    fx.clock.advance(MINUTE);
    // The answer is the status alone; the claims show in the store.
    expect(await accept(id, 'codex-1')).toEqual({ status: 'accepted' });
    expect(team.baton(id)).toMatchObject({
      status: 'accepted',
      resolvedAt: START + MINUTE,
      resolvedBySessionId: 'codex-1',
    });
    expect(team.claims('claude-1').map((c) => [c.filePath, c.state])).toEqual([['src/a.ts', 'released']]);
    expect(team.claims('codex-1').map((c) => [c.filePath, c.state, c.agent, c.note])).toEqual([
      ['src/a.ts', 'active', 'codex', `from handoff #${id}`],
      ['src/new.ts', 'active', 'codex', `from handoff #${id}`],
    ]);
    const [auditId] = repliesTo(fx.store, id);
    expect(getObservation(fx.store, auditId!)).toMatchObject({
      kind: 'handoff_accepted',
      sessionId: 'codex-1',
      taskId: team.taskId,
      metadata: { handoff_observation_id: id, from_session_id: 'claude-1', claimed_files: ['src/a.ts', 'src/new.ts'] },
    });
  });

  it('refreshes a claim the acceptor already held instead of adding a second one', async () => {
    await team.claim('codex-1', 'src/a.ts');
    const id = await team.handOff();
    fx.clock.advance(MINUTE);
    await accept(id, 'codex-1');
    expect(team.claims('codex-1')).toEqual([expect.objectContaining({ state: 'active', refreshedAt: START + MINUTE })]);
  });

  it('resolves once: a repeat or a later acceptor gets ALREADY_ACCEPTED and nothing changes', async () => {
    const id = await team.handOff();
    await accept(id, 'codex-1');
    const before = team.counts();
    expect((await acceptFails(id, 'codex-2')).code).toBe('ALREADY_ACCEPTED');
    expect((await acceptFails(id, 'codex-1')).code).toBe('ALREADY_ACCEPTED');
    expect(team.counts()).toEqual(before);
    expect(team.claims('codex-2')).toEqual([]);
  });

  it('matches to_agent by agent family, and any by everyone', async () => {
    await team.join('cc-9', 'claude-code');
    const forClaude = await team.handOff({ session_id: 'codex-1', to_agent: 'claude' });
    expect(await accept(forClaude, 'cc-9')).toMatchObject({ status: 'accepted' });
    const forAny = await team.handOff({ session_id: 'codex-1', to_agent: 'any', transferred_files: [] });
    expect(await accept(forAny, 'codex-2')).toEqual({ status: 'accepted' });
  });

  it('refuses sessions the handoff is not for, writing nothing', async () => {
    const forCodex = await team.handOff();
    await team.join('claude-2', 'claude');
    expect(await refused('task_accept_handoff', { handoff_observation_id: forCodex, session_id: 'claude-2' })).toBe(
      'NOT_TARGET_AGENT',
    );
    const forCodex2 = await team.handOff({ to_session_id: 'codex-2' });
    expect(await refused('task_accept_handoff', { handoff_observation_id: forCodex2, session_id: 'codex-1' })).toBe(
      'NOT_TARGET_SESSION',
    );
    const forAny = await team.handOff({ to_agent: 'any' });
    expect(await refused('task_accept_handoff', { handoff_observation_id: forAny, session_id: 'claude-1' })).toBe(
      'NOT_TARGET_SESSION',
    );
    await team.join('outsider', 'codex', 'other-branch');
    expect(await refused('task_accept_handoff', { handoff_observation_id: forAny, session_id: 'outsider' })).toBe(
      'NOT_PARTICIPANT',
    );
    expect(await refused('task_accept_handoff', { handoff_observation_id: forAny, session_id: 'ghost' })).toBe(
      'NOT_PARTICIPANT',
    );
    expect(await accept(forCodex2, 'codex-2')).toMatchObject({ status: 'accepted' });
  });

  it('answers OBSERVATION_NOT_FOUND for ids that are not handoffs, naming what they are', async () => {
    const note = await fx.ok<{ id: number }>('task_post', {
      task_id: team.taskId,
      session_id: 'claude-1',
      kind: 'note',
      content: 'just a note',
    });
    const relay = await team.relay();
    const unknown = await acceptFails(99_999, 'codex-1');
    expect(unknown).toMatchObject({ code: 'OBSERVATION_NOT_FOUND', handoff_observation_id: 99_999 });
    expect(await acceptFails(note.id, 'codex-1')).toMatchObject({ code: 'OBSERVATION_NOT_FOUND', kind: 'note' });
    expect(await acceptFails(relay.relay_observation_id, 'codex-1')).toMatchObject({
      code: 'OBSERVATION_NOT_FOUND',
      kind: 'relay',
    });
  });

  it('is open until just before expires_at', async () => {
    const id = await team.handOff({ expires_in_minutes: 30 });
    fx.clock.set(START + 30 * MINUTE - 1);
    expect(await accept(id, 'codex-1')).toMatchObject({ status: 'accepted' });
  });

  it('past expires_at: HANDOFF_EXPIRED, and the handoff is marked expired with its claims weakened and audited once', async () => {
    await team.claim('claude-1', 'src/a.ts');
    const id = await team.handOff({ expires_in_minutes: 30 });
    fx.clock.set(START + 30 * MINUTE);
    const error = await acceptFails(id, 'codex-1');
    expect(error).toMatchObject({ code: 'HANDOFF_EXPIRED', status: 'expired', expires_at: START + 30 * MINUTE });
    expect(team.baton(id)).toMatchObject({ status: 'expired', resolvedBySessionId: 'codex-1' });
    expect(team.claims('claude-1').map((c) => c.state)).toEqual(['weak_expired']);
    expect(team.claims('codex-1')).toEqual([]);
    const audit = repliesTo(fx.store, id).map((r) => getObservation(fx.store, r)?.kind);
    expect(audit).toEqual(['handoff_expired']);
    const before = team.counts();
    expect((await acceptFails(id, 'codex-2')).code).toBe('HANDOFF_EXPIRED');
    expect(team.counts()).toEqual(before);
  });
});

describe('task_decline_handoff', () => {
  it('cancels with the reason, gives the sender its claims back, and audits it', async () => {
    await team.claim('claude-1', 'src/a.ts');
    const id = await team.handOff();
    expect(await decline(id, 'codex-1', 'out of scope')).toEqual({ status: 'cancelled' });
    expect(team.baton(id)).toMatchObject({
      status: 'cancelled',
      resolutionReason: 'out of scope',
      resolvedBySessionId: 'codex-1',
    });
    expect(team.claims('claude-1')).toEqual([
      expect.objectContaining({ state: 'active', batonId: null, expiresAt: null }),
    ]);
    const [auditId] = repliesTo(fx.store, id);
    expect(getObservation(fx.store, auditId!)).toMatchObject({
      kind: 'handoff_declined',
      content: `declined handoff #${id}: out of scope`,
      metadata: { handoff_observation_id: id, withdrawn: false, reason: 'out of scope', settled_claims: 1 },
    });
    expect((await acceptFails(id, 'codex-2')).code).toBe('HANDOFF_CANCELLED');
    expect((await fx.fail('task_decline_handoff', { handoff_observation_id: id, session_id: 'codex-2' })).code).toBe(
      'HANDOFF_CANCELLED',
    );
  });

  it('lets the sender withdraw its own handoff', async () => {
    const id = await team.handOff();
    expect(await decline(id, 'claude-1')).toEqual({ status: 'cancelled' });
    expect(getObservation(fx.store, repliesTo(fx.store, id)[0]!)?.content).toBe(`withdrew handoff #${id}`);
  });

  it('refuses a session the handoff is not for', async () => {
    const id = await team.handOff();
    await team.join('claude-2', 'claude');
    expect(await refused('task_decline_handoff', { handoff_observation_id: id, session_id: 'claude-2' })).toBe(
      'NOT_TARGET_AGENT',
    );
  });

  it('declining an accepted handoff answers ALREADY_ACCEPTED', async () => {
    const id = await team.handOff();
    await accept(id, 'codex-1');
    expect(await refused('task_decline_handoff', { handoff_observation_id: id, session_id: 'codex-2' })).toBe(
      'ALREADY_ACCEPTED',
    );
  });

  it('declining an expired handoff answers HANDOFF_EXPIRED and marks it expired, not cancelled', async () => {
    await team.claim('claude-1', 'src/a.ts');
    const id = await team.handOff();
    fx.clock.advance(HANDOFF_TTL_MINUTES * MINUTE);
    const error = await fx.fail('task_decline_handoff', { handoff_observation_id: id, session_id: 'codex-1' });
    expect(error.code).toBe('HANDOFF_EXPIRED');
    expect(team.baton(id).status).toBe('expired');
    expect(team.claims('claude-1').map((c) => c.state)).toEqual(['weak_expired']);
  });
});

describe('pending batons of a session (BatonService.pendingFor)', () => {
  it('lists pending, unexpired handoffs for the session’s agent with the calls that settle them', async () => {
    const id = await team.handOff({ expires_in_minutes: 10 });
    const [entry, ...rest] = await fx.batons.pendingFor('codex-1');
    expect(rest).toEqual([]);
    expect(entry).toEqual({
      id,
      kind: 'handoff',
      task_id: team.taskId,
      from_session_id: 'claude-1',
      from_agent: 'claude',
      to_agent: 'codex',
      to_session_id: null,
      summary: 'Parser landed; codex: wire the CLI.',
      expires_at: START + 10 * MINUTE,
      accept_with: { tool: 'task_accept_handoff', args: { handoff_observation_id: id, session_id: 'codex-1' } },
      decline_with: { tool: 'task_decline_handoff', args: { handoff_observation_id: id, session_id: 'codex-1' } },
    });
    expect(await fx.batons.pendingFor('claude-1')).toEqual([]);
    fx.clock.advance(10 * MINUTE);
    expect(await fx.batons.pendingFor('codex-1')).toEqual([]);
  });

  it('drops resolved batons and those addressed to another session', async () => {
    const accepted = await team.handOff();
    await accept(accepted, 'codex-2');
    await team.handOff({ to_session_id: 'codex-2' });
    const relay = await team.relay();
    expect((await fx.batons.pendingFor('codex-1')).map((b) => [b.id, b.accept_with.tool])).toEqual([
      [relay.relay_observation_id, 'task_accept_relay'],
    ]);
    expect(await fx.batons.pendingFor('codex-2')).toHaveLength(2);
  });
});
