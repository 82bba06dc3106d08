/**
 * The claim queries on PostgreSQL (`pgQueries`), with the contract of their SQLite twins
 * (claims.test.ts, plans.test.ts): one live file claim per task, file and session;
 * others' live claims newest first; the pending/settled/weakened lifecycle; and a plan
 * sub-task claimed once, by `INSERT ... ON CONFLICT DO NOTHING`, never when blocked.
 */
import { expect, it } from 'vitest';
import { type PgStore, pgQueries as q } from '../src/pg/index';
import { describePgStore, type PgStoreContext } from './_pg-store';

const NOW = 1_000_000;
let tags = 0;

/** Two sessions, a task, an observation; a plan with an available and a blocked sub-task. */
async function seed(ctx: PgStoreContext) {
  const rows = ctx.rows();
  const tag = `t${++tags}`;
  const [claude, codex] = [`${tag}-claude`, `${tag}-codex`];
  for (const id of [claude, codex]) await rows.insert('sessions', { id });
  const task = await rows.insert('tasks', { repo_root: `/r/${tag}`, branch: 'main' });
  const obs = Number((await rows.insert('observations', { session_id: claude, task_id: task.id })).id);
  const plan = await rows.insert('plans');
  const free = { claimed_by_session_id: null, claimed_by_agent: null, claimed_at: null, completed_at: null };
  const subtask = (index: number, status: string) =>
    rows.insert('plan_subtasks', { ...free, plan_id: plan.id, subtask_index: index, status });
  const [available, blocked] = [await subtask(0, 'available'), await subtask(1, 'blocked')];
  return { claude, codex, taskId: Number(task.id), obs, available: Number(available.id), blocked: Number(blocked.id) };
}

describePgStore('file claims on PostgreSQL', (ctx) => {
  it('keeps one live claim per task, file and session; a released one makes room', async () => {
    const store = await ctx.open();
    const { claude, taskId, obs } = await seed(ctx);
    const claim = { taskId, filePath: 'src/a.ts', sessionId: claude, agent: 'claude', observationId: obs };
    expect(await store.write(() => q.insertClaim(store, claim, NOW))).toMatchObject({
      state: 'active',
      refreshedAt: NOW,
    });
    await expect(store.write(() => q.insertClaim(store, claim, NOW))).rejects.toMatchObject({
      cause: { code: '23505', constraint: 'file_claims_live_uq' },
    });
    expect(await store.write(() => q.releaseLiveClaims(store, taskId, claude, ['src/a.ts']))).toBe(1);
    expect(await q.findLiveClaim(store, taskId, 'src/a.ts', claude)).toBeUndefined();
    await store.write(() => q.insertClaim(store, claim, NOW + 1));
    expect((await q.findLiveClaim(store, taskId, 'src/a.ts', claude))?.claimedAt).toBe(NOW + 1);
    expect(await q.countClaims(store, 'released')).toBeGreaterThanOrEqual(1);
  });

  it("lists others' live claims newest first, never released ones", async () => {
    const store = await ctx.open();
    const { claude, codex, taskId, obs } = await seed(ctx);
    const claim = (filePath: string, sessionId: string, at: number) =>
      store.write(() => q.insertClaim(store, { taskId, filePath, sessionId, agent: 'x', observationId: obs }, at));
    await claim('a.ts', codex, NOW);
    await claim('b.ts', codex, NOW + 5);
    await claim('c.ts', claude, NOW + 9);
    await claim('d.ts', codex, NOW + 7);
    await store.write(() => q.releaseLiveClaims(store, taskId, codex, ['d.ts']));
    const paths = async (ids: number[], limit: number) =>
      (await q.othersLiveClaims(store, ids, claude, limit)).map((c) => c.filePath);
    expect([await paths([taskId], 10), await paths([taskId], 1), await paths([], 10)]).toEqual([
      ['b.ts', 'a.ts'],
      ['b.ts'],
      [],
    ]);
    expect((await q.claimsOnRepoFile(store, `/r/${claude.split('-')[0]}`, 'a.ts', 5)).map((c) => c.branch)).toEqual([
      'main',
    ]);
  });

  it('touches, hands over, settles, expires and weakens claims as SQLite does', async () => {
    const store = await ctx.open();
    const { claude, taskId, obs } = await seed(ctx);
    const a = await q.insertClaim(
      store,
      { taskId, filePath: 'a', sessionId: claude, agent: 'c', observationId: obs },
      NOW,
    );
    const b = await q.insertClaim(
      store,
      { taskId, filePath: 'b', sessionId: claude, agent: 'c', observationId: obs },
      NOW,
    );
    expect(await q.touchActiveClaim(store, taskId, 'a', claude, NOW - 5)).toBe(true);
    expect((await q.findLiveClaim(store, taskId, 'a', claude))?.refreshedAt).toBe(NOW);
    expect(await q.touchActiveClaim(store, taskId, 'zz', claude, NOW)).toBe(false);
    expect(await q.markClaimsPending(store, [a.id, b.id], 77, NOW + 10)).toBe(2);
    expect((await q.pendingClaimsOfBaton(store, 77)).map((c) => c.filePath)).toEqual(['a', 'b']);
    expect((await q.expiredPendingClaims(store, taskId, NOW + 10, 'a')).map((c) => c.id)).toEqual([a.id]);
    expect(await q.expiredPendingClaims(store, taskId, NOW + 9)).toEqual([]);
    expect(await q.weakenClaims(store, [a.id])).toBe(1);
    expect(await q.settlePendingClaims(store, 77, 'active')).toBe(1);
    const refreshed = await q.refreshClaim(store, a.id, { now: NOW + 20, observationId: obs, note: 'back' });
    expect(refreshed).toMatchObject({ state: 'active', refreshedAt: NOW + 20, batonId: null, note: 'back' });
    expect((await q.sessionClaims(store, taskId, claude, ['active'])).map((c) => c.filePath)).toEqual(['a', 'b']);
  });
});

describePgStore('plan sub-task claims on PostgreSQL', (ctx) => {
  const claimer = (sessionId: string, observationId: number) => ({ sessionId, agent: 'codex', observationId });
  const subtaskRow = async (id: number) =>
    (await ctx.admin().query('SELECT status, claimed_by_session_id AS by FROM plan_subtasks WHERE id = $1', [id]))
      .rows[0];

  it('claims an available sub-task once; a blocked or claimed one not at all, leaving no row', async () => {
    const store: PgStore = await ctx.open();
    const { claude, codex, obs, available, blocked } = await seed(ctx);
    const claim = (id: number, session: string) =>
      store.write(() => q.claimSubtask(store, id, claimer(session, obs), NOW));
    expect(await claim(blocked, codex)).toBe(false);
    expect(await q.subtaskClaims(store, blocked)).toEqual([]);
    expect(await claim(available, codex)).toBe(true);
    expect(await claim(available, claude)).toBe(false);
    expect(await subtaskRow(available)).toEqual({ status: 'claimed', by: codex });
    expect((await q.subtaskClaims(store, available)).map((c) => [c.sessionId, c.state])).toEqual([[codex, 'active']]);
  });

  it('completes only for the holder, releases back to available, keeps the history', async () => {
    const store = await ctx.open();
    const { claude, codex, obs, available } = await seed(ctx);
    await store.write(() => q.claimSubtask(store, available, claimer(codex, obs), NOW));
    expect(await store.write(() => q.completeSubtask(store, available, claude, NOW))).toBe(false);
    expect(await store.write(() => q.releaseSubtaskClaim(store, available, NOW + 5))).toBe(true);
    expect(await store.write(() => q.releaseSubtaskClaim(store, available, NOW + 5))).toBe(false);
    expect(await subtaskRow(available)).toEqual({ status: 'available', by: null });
    await store.write(() => q.claimSubtask(store, available, claimer(claude, obs), NOW + 6));
    expect(await store.write(() => q.completeSubtask(store, available, claude, NOW + 7))).toBe(true);
    expect((await q.subtaskClaims(store, available)).map((c) => [c.sessionId, c.state, c.endedAt])).toEqual([
      [codex, 'released', NOW + 5],
      [claude, 'completed', NOW + 7],
    ]);
    expect(await q.countSubtaskClaims(store, 'completed')).toBeGreaterThanOrEqual(1);
  });
});
