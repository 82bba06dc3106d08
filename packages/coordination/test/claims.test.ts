/**
 * task_claim_file: claims are warnings, never locks. One live claim per task, file and
 * session (a re-claim refreshes it), overlap warnings for others' fresh claims, stale
 * and weak ones as history, age classes from the manual clock, refusals that write
 * nothing.
 */
import { countClaims, type FileClaim, getObservation, getTask, sessionClaims } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_FRESH_MS, CLAIM_WEAK_AFTER_MS, claimAgeClass } from '../src/claims/age';
import { recordEdit } from '../src/edits';
import { createTokenCounter, DEFAULT_COORDINATION_SETTINGS } from '../src/index';
import { createFixture, type Fixture, START } from './_fixture';

const MINUTE = 60_000;

let fx: Fixture;
let repo: string;
let taskId: number;

interface ClaimResult {
  observation_id: number;
  warning?: string;
  overlaps?: Array<Record<string, unknown>>;
  weak_stale?: Array<Record<string, unknown>>;
}

const join = async (session_id: string, agent: string, branch = 'main', root = repo) =>
  (await fx.ok<{ task_id: number }>('task_thread', { repo_root: root, branch, session_id, agent })).task_id;

const claim = (session_id: string, file_path: string, extra: Record<string, unknown> = {}, task_id = taskId) =>
  fx.ok<ClaimResult>('task_claim_file', { task_id, session_id, file_path, ...extra });

const claimsOf = (session: string, task = taskId): FileClaim[] =>
  sessionClaims(fx.store, task, session, ['active', 'handoff_pending', 'released', 'weak_expired']);

beforeEach(async () => {
  fx = createFixture();
  repo = fx.repo('repo');
  taskId = await join('claude-1', 'claude');
  await join('codex-1', 'codex');
});
afterEach(() => fx.close());

describe('task_claim_file', () => {
  it('claims a file: answers { observation_id } alone, writes one active claim and a claim observation', async () => {
    fx.clock.advance(5);
    const result = await claim('claude-1', 'src/a.ts', { note: 'extending the lexer' });
    expect(result).toEqual({ observation_id: expect.any(Number) });
    expect(claimsOf('claude-1')).toEqual([
      expect.objectContaining({
        filePath: 'src/a.ts',
        agent: 'claude',
        state: 'active',
        claimedAt: START + 5,
        refreshedAt: START + 5,
        observationId: result.observation_id,
        note: 'extending the lexer',
        batonId: null,
        expiresAt: null,
      }),
    ]);
    expect(getObservation(fx.store, result.observation_id)).toMatchObject({
      kind: 'claim',
      taskId,
      sessionId: 'claude-1',
      content: 'claim src/a.ts: extending the lexer',
      metadata: { file_path: 'src/a.ts', refreshed: false, note: 'extending the lexer' },
    });
  });

  it('stores one spelling of a path: absolute, ./ and .. forms are the same file, and a re-claim refreshes it', async () => {
    await claim('claude-1', `${repo}/src/a.ts`);
    fx.clock.advance(10 * MINUTE);
    const again = await claim('claude-1', './src/lib/../a.ts', { note: 'second pass' });
    const rows = claimsOf('claude-1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      filePath: 'src/a.ts',
      claimedAt: START,
      refreshedAt: START + 10 * MINUTE,
      observationId: again.observation_id,
      note: 'second pass',
    });
    expect(getObservation(fx.store, again.observation_id)?.metadata).toMatchObject({ refreshed: true });
  });

  it('succeeds for everyone and warns about another session’s fresh claim on the same file', async () => {
    await claim('claude-1', 'src/a.ts');
    fx.clock.advance(MINUTE);
    const second = await claim('codex-1', 'src/a.ts');
    expect(second.overlaps).toEqual([
      { session_id: 'claude-1', agent: 'claude', task_id: taskId, claimed_at: START, age_class: 'fresh' },
    ]);
    expect(second.warning).toBe(
      'src/a.ts is also claimed by claude-1 (claude, fresh). Claims are warnings, not locks: coordinate before editing.',
    );
    expect(second.weak_stale).toBeUndefined();
    expect(countClaims(fx.store, 'active')).toBe(2);
  });

  it('reports claims on other branches of the same repository, but not on other repositories', async () => {
    const other = await join('codex-2', 'codex', 'feature/x');
    const elsewhere = await join('codex-3', 'codex', 'main', fx.repo('other-repo'));
    await claim('codex-2', 'src/a.ts', {}, other);
    await claim('codex-3', 'src/a.ts', {}, elsewhere);
    const result = await claim('claude-1', 'src/a.ts');
    expect(result.overlaps?.map((o) => [o.session_id, o.task_id])).toEqual([['codex-2', other]]);
  });

  it('turns others’ claims from fresh to stale to weak_expired as time passes: history, not ownership', async () => {
    await claim('claude-1', 'src/a.ts');
    fx.clock.set(START + CLAIM_FRESH_MS - 1);
    expect((await claim('codex-1', 'src/a.ts')).overlaps?.[0]?.age_class).toBe('fresh');

    fx.clock.set(START + CLAIM_FRESH_MS);
    const stale = await claim('codex-1', 'src/a.ts');
    expect(stale.warning).toBeUndefined();
    expect(stale.overlaps).toBeUndefined();
    expect(stale.weak_stale).toEqual([expect.objectContaining({ session_id: 'claude-1', age_class: 'stale' })]);

    fx.clock.set(START + CLAIM_WEAK_AFTER_MS);
    const weak = await claim('codex-1', 'src/a.ts');
    expect(weak.weak_stale).toEqual([expect.objectContaining({ session_id: 'claude-1', age_class: 'weak_expired' })]);
    // Still in the audit history.
    expect(claimsOf('claude-1')).toHaveLength(1);
  });

  it('keeps a claim fresh while its session records edits of the file', async () => {
    await claim('claude-1', 'src/a.ts');
    const ctx = {
      store: fx.store,
      clock: fx.clock,
      tokens: createTokenCounter(),
      settings: DEFAULT_COORDINATION_SETTINGS,
    };
    const task = getTask(fx.store, taskId)!;
    fx.clock.set(START + 50 * MINUTE);
    await fx.store.write(() =>
      recordEdit(ctx, { sessionId: 'claude-1', task, tool: 'Edit', filePath: `${repo}/src/a.ts` }),
    );
    // Another session's edit refreshes nothing of claude's.
    fx.clock.set(START + 55 * MINUTE);
    await fx.store.write(() => recordEdit(ctx, { sessionId: 'codex-1', task, tool: 'Edit', filePath: 'src/a.ts' }));
    expect(claimsOf('claude-1')[0]?.refreshedAt).toBe(START + 50 * MINUTE);
    fx.clock.set(START + 100 * MINUTE);
    expect((await claim('codex-1', 'src/a.ts')).overlaps?.[0]?.age_class).toBe('fresh');
  });

  describe('refusals write nothing', () => {
    const cases: Array<[string, () => Record<string, unknown>, string]> = [
      ['a path outside the repository', () => ({ file_path: '../escape.ts' }), 'PATH_OUTSIDE_REPO'],
      ['an absolute path elsewhere', () => ({ file_path: '/etc/passwd' }), 'PATH_OUTSIDE_REPO'],
      ['the repository root itself', () => ({ file_path: '.' }), 'PATH_OUTSIDE_REPO'],
      ['an unknown task', () => ({ task_id: 999 }), 'TASK_NOT_FOUND'],
      ['an unknown session (it has joined nothing)', () => ({ session_id: 'ghost' }), 'NOT_PARTICIPANT'],
      ['an oversize note', () => ({ note: 'x'.repeat(501) }), 'INVALID_PARAMETERS'],
      ['an empty path', () => ({ file_path: '' }), 'INVALID_PARAMETERS'],
    ];
    for (const [name, args, code] of cases) {
      it(`${name}: ${code}`, async () => {
        const before = fx.observations();
        const error = await fx.fail('task_claim_file', {
          task_id: taskId,
          session_id: 'claude-1',
          file_path: 'src/a.ts',
          ...args(),
        });
        expect(error.code).toBe(code);
        expect(fx.observations()).toBe(before);
        expect(countClaims(fx.store)).toBe(0);
      });
    }

    it('a session that has not joined the task: NOT_PARTICIPANT', async () => {
      await fx.ok('task_thread', { repo_root: repo, branch: 'other', session_id: 'outsider', agent: 'codex' });
      const before = fx.observations();
      const error = await fx.fail('task_claim_file', { task_id: taskId, session_id: 'outsider', file_path: 'a.ts' });
      expect(error.code).toBe('NOT_PARTICIPANT');
      expect(fx.observations()).toBe(before);
      expect(countClaims(fx.store)).toBe(0);
    });
  });
});

describe('claimAgeClass', () => {
  const active = { state: 'active', refreshedAt: START, expiresAt: null } as const;
  it('classifies active claims by time since their last refresh', () => {
    expect(claimAgeClass(active, START)).toBe('fresh');
    expect(claimAgeClass(active, START + CLAIM_FRESH_MS - 1)).toBe('fresh');
    expect(claimAgeClass(active, START + CLAIM_FRESH_MS)).toBe('stale');
    expect(claimAgeClass(active, START + CLAIM_WEAK_AFTER_MS - 1)).toBe('stale');
    expect(claimAgeClass(active, START + CLAIM_WEAK_AFTER_MS)).toBe('weak_expired');
  });

  it('keeps handoff_pending until the baton expiry, then weak_expired; released claims do not count', () => {
    const pending = { state: 'handoff_pending', refreshedAt: START, expiresAt: START + 10 } as const;
    expect(claimAgeClass(pending, START + 9)).toBe('handoff_pending');
    expect(claimAgeClass(pending, START + 10)).toBe('weak_expired');
    expect(claimAgeClass({ ...active, state: 'weak_expired' }, START)).toBe('weak_expired');
    expect(claimAgeClass({ ...active, state: 'released' }, START)).toBeNull();
  });
});
