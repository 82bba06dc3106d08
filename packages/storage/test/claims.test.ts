/**
 * Claim and baton queries: the live-claim unique index, others' live claims on a
 * session's threads, guarded baton updates that succeed once, and the pending batons a
 * session can see.
 */
import { expect, it } from 'vitest';
import {
  ensureTask,
  findLiveClaim,
  getBaton,
  insertBaton,
  insertClaim,
  insertObservation,
  joinTask,
  openBatonsForSession,
  othersLiveClaims,
  releaseLiveClaims,
  resolveBaton,
  retargetBaton,
  type Store,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

const NOW = 1_000_000;

function seed(store: Store) {
  return store.write(async () => {
    for (const id of ['s-claude', 's-codex', 's-other']) upsertSession(store, { id }, NOW);
    const { task } = ensureTask(store, { repoRoot: '/r', branch: 'main' }, NOW);
    joinTask(store, task.id, 's-claude', 'claude', NOW);
    joinTask(store, task.id, 's-codex', 'codex', NOW);
    const obs = await insertObservation(store, {
      sessionId: 's-claude',
      taskId: task.id,
      kind: 'handoff',
      content: 'x',
      ts: NOW,
      tokenCount: 1,
    });
    return { taskId: task.id, obs };
  });
}

const baton = (taskId: number, id: number, extra: Partial<Parameters<typeof insertBaton>[1]> = {}) => ({
  id,
  taskId,
  kind: 'handoff' as const,
  fromSessionId: 's-claude',
  fromAgent: 'claude',
  toAgent: 'codex',
  summary: 'take it',
  payload: {},
  createdAt: NOW,
  expiresAt: NOW + 1000,
  ...extra,
});

describeMatrix('file claims', ({ open }) => {
  it('keeps one live claim per task, file and session; a released one makes room', async () => {
    const store = open();
    const { taskId, obs } = await seed(store);
    const claim = { taskId, filePath: 'src/a.ts', sessionId: 's-claude', agent: 'claude', observationId: obs };
    await store.write(() => insertClaim(store, claim, NOW));
    await expect(store.write(() => insertClaim(store, claim, NOW))).rejects.toThrow(/UNIQUE/);
    expect(await store.write(() => releaseLiveClaims(store, taskId, 's-claude', ['src/a.ts']))).toBe(1);
    expect(findLiveClaim(store, taskId, 'src/a.ts', 's-claude')).toBeUndefined();
    await store.write(() => insertClaim(store, claim, NOW + 1));
    expect(findLiveClaim(store, taskId, 'src/a.ts', 's-claude')?.claimedAt).toBe(NOW + 1);
  });
});

describeMatrix("others' live claims", ({ open }) => {
  it('lists live claims of other sessions on the given threads, newest first, never released ones', async () => {
    const store = open();
    const { taskId, obs } = await seed(store);
    const claim = (filePath: string, sessionId: string, at: number) =>
      store.write(() => insertClaim(store, { taskId, filePath, sessionId, agent: 'x', observationId: obs }, at));
    await claim('a.ts', 's-codex', NOW);
    await claim('b.ts', 's-codex', NOW + 5);
    await claim('c.ts', 's-claude', NOW + 9);
    await claim('d.ts', 's-codex', NOW + 7);
    await store.write(() => releaseLiveClaims(store, taskId, 's-codex', ['d.ts']));
    expect(othersLiveClaims(store, [taskId], 's-claude', 10).map((c) => c.filePath)).toEqual(['b.ts', 'a.ts']);
    expect(othersLiveClaims(store, [taskId], 's-claude', 1).map((c) => c.filePath)).toEqual(['b.ts']);
    expect(othersLiveClaims(store, [], 's-claude', 10)).toEqual([]);
    expect(othersLiveClaims(store, [taskId + 1], 's-claude', 10)).toEqual([]);
  });
});

describeMatrix('batons', ({ open }) => {
  it('resolves a pending baton once: the second guarded update reports it lost', async () => {
    const store = open();
    const { taskId, obs } = await seed(store);
    await store.write(() => insertBaton(store, baton(taskId, obs)));
    const accept = (by: string) =>
      store.write(() => resolveBaton(store, obs, { status: 'accepted', now: NOW + 1, bySessionId: by }));
    expect(await accept('s-codex')).toBe(true);
    expect(await accept('s-other')).toBe(false);
    expect(await store.write(() => retargetBaton(store, obs, 'any', null))).toBe(false);
    expect(getBaton(store, obs)).toMatchObject({
      status: 'accepted',
      resolvedBySessionId: 's-codex',
      resolvedAt: NOW + 1,
    });
  });

  it('lists the pending, unexpired batons of a participant’s tasks that it did not send', async () => {
    const store = open();
    const { taskId, obs } = await seed(store);
    await store.write(() => insertBaton(store, baton(taskId, obs)));
    expect(openBatonsForSession(store, 's-codex', NOW, 10).map((b) => [b.id, b.participantAgent])).toEqual([
      [obs, 'codex'],
    ]);
    expect(openBatonsForSession(store, 's-claude', NOW, 10)).toEqual([]);
    expect(openBatonsForSession(store, 's-other', NOW, 10)).toEqual([]);
    expect(openBatonsForSession(store, 's-codex', NOW + 1000, 10)).toEqual([]);
  });
});
