/**
 * Relays (task_relay, task_accept_relay, task_decline_relay): the sender may be gone,
 * so only its fresh claims wait on the relay (with the relay's short TTL), the relay
 * carries a worktree recipe, and a declined relay leaves ownership free.
 */
import { getObservation, getTask, repliesTo } from '@swarm/storage';
import { RELAY_TTL_MINUTES } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FETCH_FILES_WARNING } from '../src/batons/open-baton';
import { CLAIM_FRESH_MS } from '../src/claims/age';
import { recordEdit } from '../src/edits';
import { createTokenCounter, DEFAULT_COORDINATION_SETTINGS } from '../src/index';
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

const edit = async (filePath: string) => {
  const ctx = {
    store: fx.store,
    clock: fx.clock,
    tokens: createTokenCounter(),
    settings: DEFAULT_COORDINATION_SETTINGS,
  };
  await fx.store.write(() =>
    recordEdit(ctx, { sessionId: 'claude-1', task: getTask(fx.store, team.taskId)!, tool: 'Write', filePath }),
  );
};

describe('task_relay', () => {
  it('weakens only fresh claims to handoff_pending with the relay TTL, and stores a worktree recipe', async () => {
    await team.claim('claude-1', 'src/old.ts');
    fx.clock.set(START + CLAIM_FRESH_MS + MINUTE);
    await team.claim('claude-1', 'src/fresh.ts');
    await edit('src/fresh.ts');
    await edit('docs/notes.md');
    const now = fx.clock.now();
    const result = await team.relay({ fetch_files_at: 'abc1234', to_agent: 'codex' });
    const id = result.relay_observation_id;
    expect(result).toEqual({ relay_observation_id: id, status: 'pending' });
    expect(team.claims('claude-1').map((c) => [c.filePath, c.state, c.batonId, c.expiresAt])).toEqual([
      ['src/old.ts', 'active', null, null],
      ['src/fresh.ts', 'handoff_pending', id, now + RELAY_TTL_MINUTES * MINUTE],
    ]);
    const baton = team.baton(id);
    expect(baton).toMatchObject({
      kind: 'relay',
      toAgent: 'codex',
      summary: 'Docs half-written; finish the relay section.',
      expiresAt: now + RELAY_TTL_MINUTES * MINUTE,
    });
    expect(baton.payload).toEqual({
      reason: 'quota',
      one_line: 'Docs half-written; finish the relay section.',
      base_branch: 'main',
      fetch_files_at: 'abc1234',
      transferred_files: ['src/fresh.ts'],
      worktree_recipe: {
        repo_root: team.repo,
        base_branch: 'main',
        branch: 'main',
        fetch_files_at: 'abc1234',
        claimed_files: ['src/fresh.ts'],
        touched_files: expect.arrayContaining(['src/fresh.ts', 'docs/notes.md']),
        steps: expect.arrayContaining([
          expect.stringContaining('worktree add --detach .colony/worktrees/main abc1234'),
        ]),
      },
    });
    const observation = getObservation(fx.store, id);
    expect(observation).toMatchObject({ kind: 'relay', metadata: { worktree_recipe: baton.payload.worktree_recipe } });
    expect(observation?.content).toContain('relay (quota): Docs half-written');
  });

  it('defaults to_agent to any and warns when fetch_files_at is omitted', async () => {
    const result = await team.relay();
    expect(result.warning).toBe(FETCH_FILES_WARNING);
    expect(team.baton(result.relay_observation_id)).toMatchObject({
      toAgent: 'any',
      payload: { fetch_files_at: null },
    });
  });

  it('refuses an unknown reason, a non-participant and a TTL past the limit, writing nothing', async () => {
    await team.join('outsider', 'claude', 'elsewhere');
    for (const [args, code] of [
      [{ reason: 'tired' }, 'INVALID_PARAMETERS'],
      [{ expires_in_minutes: 1441 }, 'INVALID_PARAMETERS'],
      [{ session_id: 'outsider' }, 'NOT_PARTICIPANT'],
      [{ task_id: 404 }, 'TASK_NOT_FOUND'],
    ] as const) {
      const before = team.counts();
      const error = await fx.fail('task_relay', {
        task_id: team.taskId,
        session_id: 'claude-1',
        reason: 'quota',
        one_line: 'x',
        base_branch: 'main',
        ...args,
      });
      expect(error.code).toBe(code);
      expect(team.counts()).toEqual(before);
    }
  });
});

describe('task_accept_relay', () => {
  it('re-claims the inherited files under the receiver and releases the sender’s', async () => {
    await team.claim('claude-1', 'src/a.ts');
    const { relay_observation_id: id } = await team.relay();
    const result = await fx.ok('task_accept_relay', { relay_observation_id: id, session_id: 'codex-1' });
    expect(result).toEqual({ status: 'accepted' });
    expect(team.claims('claude-1').map((c) => c.state)).toEqual(['released']);
    expect(team.claims('codex-1').map((c) => [c.filePath, c.state])).toEqual([['src/a.ts', 'active']]);
    expect(repliesTo(fx.store, id).map((r) => getObservation(fx.store, r)?.kind)).toEqual(['relay_accepted']);
    expect((await fx.fail('task_accept_relay', { relay_observation_id: id, session_id: 'codex-2' })).code).toBe(
      'ALREADY_ACCEPTED',
    );
  });

  it('answers OBSERVATION_NOT_FOUND for a handoff id', async () => {
    const handoff = await team.handOff();
    expect(await fx.fail('task_accept_relay', { relay_observation_id: handoff, session_id: 'codex-1' })).toMatchObject({
      code: 'OBSERVATION_NOT_FOUND',
      kind: 'handoff',
      relay_observation_id: handoff,
    });
  });

  it('after the relay TTL: HANDOFF_EXPIRED, relay expired, inherited claims weak_expired', async () => {
    await team.claim('claude-1', 'src/a.ts');
    const { relay_observation_id: id } = await team.relay({ expires_in_minutes: 15 });
    fx.clock.advance(15 * MINUTE);
    const error = await fx.fail('task_accept_relay', { relay_observation_id: id, session_id: 'codex-1' });
    expect(error.code).toBe('HANDOFF_EXPIRED');
    expect(team.baton(id).status).toBe('expired');
    expect(team.claims('claude-1').map((c) => c.state)).toEqual(['weak_expired']);
    expect(repliesTo(fx.store, id).map((r) => getObservation(fx.store, r)?.kind)).toEqual(['relay_expired']);
  });
});

describe('task_decline_relay', () => {
  it('cancels the relay and leaves its claims weak_expired, free for rerouting', async () => {
    await team.claim('claude-1', 'src/a.ts');
    const { relay_observation_id: id } = await team.relay();
    const result = await fx.ok('task_decline_relay', {
      relay_observation_id: id,
      session_id: 'codex-1',
      reason: 'branch already pruned',
    });
    expect(result).toEqual({ status: 'cancelled' });
    expect(team.baton(id)).toMatchObject({ status: 'cancelled', resolutionReason: 'branch already pruned' });
    expect(team.claims('claude-1').map((c) => c.state)).toEqual(['weak_expired']);
    expect(getObservation(fx.store, repliesTo(fx.store, id)[0]!)?.kind).toBe('relay_declined');
  });
});
