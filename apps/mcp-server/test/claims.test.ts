/**
 * File claims, drift, handoffs, relays and quota claims over the real wire: a server
 * process driven by the MCP SDK client, its clock driven through COLONY_CLOCK_FILE so
 * every age class and expiry path runs against the process, not a fake. Refusals are
 * checked to write nothing by reading the same store (SQLite file or PostgreSQL database).
 */
import { join } from 'node:path';
import { type ColonyStore, countBatons, countClaims, countObservations, insertObservation } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { type Server, setClock, startServer, tempDir } from './_harness';

const REPO = '/abs/claims-repo';
const MINUTE = 60_000;

let server: Server;
let store: ColonyStore;
let clockFile: string;
let now = Date.UTC(2026, 2, 1);
let taskId: number;
let otherTaskId: number;

const advance = (ms: number) => {
  now += ms;
  setClock(clockFile, now);
};
const ok = async (tool: string, args: Record<string, unknown>) => {
  const result = await server.call(tool, args);
  if (result.isError) throw new Error(`${tool} failed: ${result.text}`);
  return result.payload;
};
const snapshot = async () => ({
  observations: await countObservations(store),
  claims: await Promise.all(
    ['active', 'handoff_pending', 'released', 'weak_expired'].map((s) => countClaims(store, s as 'active')),
  ),
  batons: await Promise.all(
    ['pending', 'accepted', 'cancelled', 'expired'].map((s) => countBatons(store, s as 'pending')),
  ),
});
/** Calls a tool that must fail with `code`, and checks the database did not change. */
async function refused(tool: string, args: Record<string, unknown>, code: string) {
  const before = await snapshot();
  const result = await server.call(tool, args);
  expect(result.isError, result.text).toBe(true);
  expect(result.payload).toMatchObject({ code, tool });
  expect(await snapshot()).toEqual(before);
  return result.payload;
}
const handOff = async (args: Record<string, unknown> = {}) =>
  (
    await ok('task_hand_off', {
      task_id: taskId,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      summary: 'Parser landed. Codex: wire the CLI.',
      transferred_files: ['src/parser.ts'],
      ...args,
    })
  ).handoff_observation_id as number;

beforeAll(async () => {
  const dir = tempDir();
  const db = join(dir, 'colony.db');
  clockFile = join(dir, 'clock');
  setClock(clockFile, now);
  server = await startServer({ db, home: dir, clockFile });
  const join_ = (session_id: string, agent: string, branch = 'main') =>
    ok('task_thread', { repo_root: REPO, branch, session_id, agent });
  taskId = (await join_('claude-1', 'claude')).task_id;
  await join_('codex-1', 'codex');
  await join_('codex-2', 'codex');
  otherTaskId = (await join_('outsider', 'codex', 'feature/other')).task_id;
  store = await openTestStore(db);
}, 60_000);

afterAll(async () => {
  await store?.close();
  await server?.close();
});

describe('task_claim_file over stdio', () => {
  it('claims, warns about a fresh overlap, and ages the other claim with the server clock', async () => {
    const first = await ok('task_claim_file', {
      task_id: taskId,
      session_id: 'claude-1',
      file_path: `${REPO}/src/lexer.ts`,
      note: 'hand-written lexer',
    });
    expect(first).toEqual({ observation_id: expect.any(Number) });
    const claimedAt = now;
    advance(MINUTE);
    const second = await ok('task_claim_file', { task_id: taskId, session_id: 'codex-1', file_path: 'src/lexer.ts' });
    expect(second.overlaps).toEqual([
      { session_id: 'claude-1', agent: 'claude', task_id: taskId, claimed_at: claimedAt, age_class: 'fresh' },
    ]);
    expect(second.warning).toContain('src/lexer.ts is also claimed by claude-1');
    advance(60 * MINUTE);
    const stale = await ok('task_claim_file', { task_id: taskId, session_id: 'codex-1', file_path: 'src/lexer.ts' });
    expect(stale.overlaps).toBeUndefined();
    expect(stale.weak_stale).toEqual([expect.objectContaining({ session_id: 'claude-1', age_class: 'stale' })]);
    advance(180 * MINUTE);
    const weak = await ok('task_claim_file', { task_id: taskId, session_id: 'codex-1', file_path: 'src/lexer.ts' });
    expect(weak.weak_stale).toEqual([expect.objectContaining({ age_class: 'weak_expired' })]);
  });

  it('refuses bad input with documented codes and writes nothing', async () => {
    const base = { task_id: taskId, session_id: 'claude-1', file_path: 'src/a.ts' };
    await refused('task_claim_file', { ...base, file_path: '../outside.ts' }, 'PATH_OUTSIDE_REPO');
    await refused('task_claim_file', { ...base, session_id: 'outsider' }, 'NOT_PARTICIPANT');
    await refused('task_claim_file', { ...base, session_id: 'nobody' }, 'NOT_PARTICIPANT');
    await refused('task_claim_file', { ...base, task_id: 9999 }, 'TASK_NOT_FOUND');
    await refused('task_claim_file', { ...base, note: 'n'.repeat(501) }, 'INVALID_PARAMETERS');
  });
});

describe('task_drift_check over stdio', () => {
  it('compares active claims with edit observations in the window', async () => {
    await ok('task_claim_file', { task_id: taskId, session_id: 'codex-2', file_path: 'src/keeper.ts' });
    await ok('task_claim_file', { task_id: taskId, session_id: 'codex-2', file_path: 'src/idle-claim.ts' });
    for (const file of ['src/keeper.ts', 'src/uncovered.ts']) {
      await insertObservation(store, {
        sessionId: 'codex-2',
        taskId,
        kind: 'edit',
        content: `Edit ${file}`,
        metadata: { tool: 'Edit', file_path: file },
        ts: now,
        tokenCount: 2,
      });
    }
    const drift = await ok('task_drift_check', { session_id: 'codex-2', task_id: taskId });
    expect(drift).toEqual({
      generated_at: now,
      task_id: taskId,
      session_id: 'codex-2',
      window_minutes: 60,
      claimed_files: ['src/idle-claim.ts', 'src/keeper.ts'],
      edited_files: ['src/keeper.ts', 'src/uncovered.ts'],
      edits_without_claim: ['src/uncovered.ts'],
      claims_without_edits: ['src/idle-claim.ts'],
      drift_score: 0.5,
      recommendation: expect.stringContaining('Claim 1 file(s) edited without an active claim: src/uncovered.ts.'),
      next_tool: 'task_claim_file',
      next_args: [{ session_id: 'codex-2', task_id: taskId, file_path: 'src/uncovered.ts' }],
      budget: {
        items_available: 3,
        items_returned: 3,
        collapsed_count: 0,
        estimated_tokens_returned: expect.any(Number),
        hydrate_with: 'task_timeline',
        why_collapsed: null,
      },
    });
    advance(61 * MINUTE);
    expect((await ok('task_drift_check', { session_id: 'codex-2', task_id: taskId })).edited_files).toEqual([]);
    await refused(
      'task_drift_check',
      { session_id: 'codex-2', task_id: taskId, window_minutes: 1441 },
      'INVALID_PARAMETERS',
    );
  });
});

describe('handoffs over stdio', () => {
  it('hands off, accepts once, and answers ALREADY_ACCEPTED after', async () => {
    await ok('task_claim_file', { task_id: taskId, session_id: 'claude-1', file_path: 'src/parser.ts' });
    const id = await handOff();
    const accepted = await ok('task_accept_handoff', { handoff_observation_id: id, session_id: 'codex-1' });
    expect(accepted).toEqual({ status: 'accepted' });
    await refused('task_accept_handoff', { handoff_observation_id: id, session_id: 'codex-2' }, 'ALREADY_ACCEPTED');
    await refused('task_decline_handoff', { handoff_observation_id: id, session_id: 'codex-2' }, 'ALREADY_ACCEPTED');
  });

  it('replays a retried accept with the same idempotency key instead of refusing it', async () => {
    const id = await handOff();
    const args = { handoff_observation_id: id, session_id: 'codex-2', idempotency_key: 'accept-once' };
    const first = await ok('task_accept_handoff', args);
    expect(await ok('task_accept_handoff', args)).toEqual(first);
  });

  it('refuses non-targets, outsiders and ids that are not handoffs', async () => {
    const forCodex2 = await handOff({ to_session_id: 'codex-2' });
    await refused(
      'task_accept_handoff',
      { handoff_observation_id: forCodex2, session_id: 'codex-1' },
      'NOT_TARGET_SESSION',
    );
    const forClaude = await handOff({
      session_id: 'codex-1',
      agent: 'codex',
      to_agent: 'claude',
      transferred_files: [],
    });
    await refused(
      'task_accept_handoff',
      { handoff_observation_id: forClaude, session_id: 'codex-2' },
      'NOT_TARGET_AGENT',
    );
    await refused(
      'task_accept_handoff',
      { handoff_observation_id: forClaude, session_id: 'outsider' },
      'NOT_PARTICIPANT',
    );
    await refused(
      'task_accept_handoff',
      { handoff_observation_id: 987_654, session_id: 'codex-1' },
      'OBSERVATION_NOT_FOUND',
    );
    const note = await ok('task_post', { task_id: taskId, session_id: 'claude-1', kind: 'note', content: 'hi' });
    const notHandoff = await refused(
      'task_accept_handoff',
      { handoff_observation_id: note.id, session_id: 'codex-1' },
      'OBSERVATION_NOT_FOUND',
    );
    expect(notHandoff.kind).toBe('note');
    await refused(
      'task_hand_off',
      { task_id: taskId, session_id: 'claude-1', to_agent: 'codex', summary: 's', transferred_files: ['/etc/passwd'] },
      'PATH_OUTSIDE_REPO',
    );
  });

  it('declines with a reason; a declined handoff answers HANDOFF_CANCELLED', async () => {
    const id = await handOff();
    expect(
      await ok('task_decline_handoff', { handoff_observation_id: id, session_id: 'codex-1', reason: 'busy' }),
    ).toEqual({
      status: 'cancelled',
    });
    await refused('task_accept_handoff', { handoff_observation_id: id, session_id: 'codex-2' }, 'HANDOFF_CANCELLED');
  });

  it('expires with the server clock: accept and decline answer HANDOFF_EXPIRED and mark it expired', async () => {
    const forAccept = await handOff({ expires_in_minutes: 5 });
    const forDecline = await handOff({ expires_in_minutes: 5 });
    advance(5 * MINUTE);
    const before = await countBatons(store, 'expired');
    const a = await server.call('task_accept_handoff', { handoff_observation_id: forAccept, session_id: 'codex-1' });
    expect(a.payload).toMatchObject({ code: 'HANDOFF_EXPIRED', status: 'expired' });
    const d = await server.call('task_decline_handoff', { handoff_observation_id: forDecline, session_id: 'codex-1' });
    expect(d.payload.code).toBe('HANDOFF_EXPIRED');
    expect(await countBatons(store, 'expired')).toBe(before + 2);
    await refused(
      'task_accept_handoff',
      { handoff_observation_id: forAccept, session_id: 'codex-2' },
      'HANDOFF_EXPIRED',
    );
  });
});

describe('relays over stdio', () => {
  it('weakens fresh claims, warns without fetch_files_at, and hands them to the acceptor', async () => {
    await ok('task_claim_file', { task_id: taskId, session_id: 'claude-1', file_path: 'docs/relay.md' });
    const relay = await ok('task_relay', {
      task_id: taskId,
      session_id: 'claude-1',
      agent: 'claude',
      reason: 'quota',
      one_line: 'Docs patch is half-written.',
      base_branch: 'main',
    });
    expect(relay).toEqual({
      relay_observation_id: expect.any(Number),
      status: 'pending',
      warning: expect.stringContaining('fetch_files_at omitted'),
    });
    const [body] = await ok('get_observations', { ids: [relay.relay_observation_id] });
    expect(body.metadata.worktree_recipe).toMatchObject({
      base_branch: 'main',
      branch: 'main',
      claimed_files: ['docs/relay.md'],
    });
    await refused(
      'task_accept_handoff',
      { handoff_observation_id: relay.relay_observation_id, session_id: 'codex-1' },
      'OBSERVATION_NOT_FOUND',
    );
    const accepted = await ok('task_accept_relay', {
      relay_observation_id: relay.relay_observation_id,
      session_id: 'codex-1',
    });
    expect(accepted).toEqual({ status: 'accepted' });
  });

  it('declines a relay, and expires another with the server clock', async () => {
    const relay = (args: Record<string, unknown>) =>
      ok('task_relay', {
        task_id: taskId,
        session_id: 'claude-1',
        reason: 'turn_cap',
        one_line: 'x',
        base_branch: 'main',
        fetch_files_at: 'abc1234',
        ...args,
      });
    const declined = await relay({});
    expect(
      await ok('task_decline_relay', {
        relay_observation_id: declined.relay_observation_id,
        session_id: 'codex-2',
        reason: 'pruned',
      }),
    ).toEqual({ status: 'cancelled' });
    const expiring = await relay({ expires_in_minutes: 10 });
    const declinedLate = await relay({ expires_in_minutes: 10 });
    advance(10 * MINUTE);
    const late = await server.call('task_accept_relay', {
      relay_observation_id: expiring.relay_observation_id,
      session_id: 'codex-2',
    });
    expect(late.payload.code).toBe('HANDOFF_EXPIRED');
    const before = await countBatons(store, 'expired');
    const lateDecline = await server.call('task_decline_relay', {
      relay_observation_id: declinedLate.relay_observation_id,
      session_id: 'codex-2',
    });
    expect(lateDecline.payload.code).toBe('HANDOFF_EXPIRED');
    expect(await countBatons(store, 'expired')).toBe(before + 1);
  });
});

describe('quota claims over stdio', () => {
  it('adopts by file, declines by retargeting, and releases expired ones', async () => {
    const relay = async (file: string, minutes: number) => {
      await ok('task_claim_file', { task_id: taskId, session_id: 'claude-1', file_path: file });
      return (
        await ok('task_relay', {
          task_id: taskId,
          session_id: 'claude-1',
          reason: 'quota',
          one_line: file,
          base_branch: 'main',
          to_agent: 'codex',
          fetch_files_at: 'abc',
          expires_in_minutes: minutes,
        })
      ).relay_observation_id as number;
    };
    const adopted = await relay('src/q1.ts', 30);
    expect(
      await ok('task_claim_quota_accept', {
        task_id: taskId,
        session_id: 'codex-1',
        agent: 'codex',
        file_path: 'src/q1.ts',
      }),
    ).toEqual({
      status: 'accepted',
      handoff_observation_id: adopted,
      task_id: taskId,
      claimed_files: ['src/q1.ts'],
    });
    const retargeted = await relay('src/q2.ts', 30);
    expect(
      await ok('task_claim_quota_decline', {
        task_id: taskId,
        session_id: 'codex-1',
        handoff_observation_id: retargeted,
      }),
    ).toEqual({
      status: 'pending',
      handoff_observation_id: retargeted,
      to_agent: 'any',
    });
    await refused('task_claim_quota_accept', { task_id: taskId, session_id: 'codex-1' }, 'INVALID_PARAMETERS');
    await refused(
      'task_claim_quota_accept',
      { task_id: otherTaskId, session_id: 'outsider', handoff_observation_id: retargeted },
      'OBSERVATION_NOT_ON_TASK',
    );
    advance(30 * MINUTE);
    await refused('task_claim_quota_release_expired', { task_id: taskId, session_id: 'outsider' }, 'NOT_PARTICIPANT');
    const released = await ok('task_claim_quota_release_expired', { task_id: taskId, session_id: 'codex-2' });
    expect(released.expired_observation_ids).toContain(retargeted);
    expect(released.weak_expired_files).toContain('src/q2.ts');
    expect(await ok('task_claim_quota_release_expired', { task_id: taskId, session_id: 'codex-2' })).toEqual({
      expired_observation_ids: [],
      weak_expired_files: [],
    });
    const late = await relay('src/q3.ts', 1);
    advance(MINUTE);
    const expired = await server.call('task_claim_quota_accept', {
      task_id: taskId,
      session_id: 'codex-1',
      handoff_observation_id: late,
    });
    expect(expired.payload.code).toBe('HANDOFF_EXPIRED');
    const lateDecline = await relay('src/q4.ts', 1);
    advance(MINUTE);
    const declined = await server.call('task_claim_quota_decline', {
      task_id: taskId,
      session_id: 'codex-1',
      file_path: 'src/q4.ts',
    });
    expect(declined.payload.code).toBe('HANDOFF_EXPIRED');
    expect(lateDecline).toBeGreaterThan(late);
  });
});
