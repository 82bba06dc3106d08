/**
 * Claim and baton queries: the live-claim unique index, guarded baton updates that
 * succeed once, and the pending batons a session can see.
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
  releaseLiveClaims,
  resolveBaton,
  retargetBaton,
  type Store,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

const NOW = 1_000_000;

function seed(store: Store) {
  return store.write(() => {
    for (const id of ['s-claude', 's-codex', 's-other']) upsertSession(store, { id }, NOW);
    const { task } = ensureTask(store, { repoRoot: '/r', branch: 'main' }, NOW);
    joinTask(store, task.id, 's-claude', 'claude', NOW);
    joinTask(store, task.id, 's-codex', 'codex', NOW);
    const obs = insertObservation(store, {
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
  it('keeps one live claim per task, file and session; a released one makes room', () => {
    const store = open();
    const { taskId, obs } = seed(store);
    const claim = { taskId, filePath: 'src/a.ts', sessionId: 's-claude', agent: 'claude', observationId: obs };
    store.write(() => insertClaim(store, claim, NOW));
    expect(() => store.write(() => insertClaim(store, claim, NOW))).toThrow(/UNIQUE/);
    expect(store.write(() => releaseLiveClaims(store, taskId, 's-claude', ['src/a.ts']))).toBe(1);
    expect(findLiveClaim(store, taskId, 'src/a.ts', 's-claude')).toBeUndefined();
    store.write(() => insertClaim(store, claim, NOW + 1));
    expect(findLiveClaim(store, taskId, 'src/a.ts', 's-claude')?.claimedAt).toBe(NOW + 1);
  });
});

describeMatrix('batons', ({ open }) => {
  it('resolves a pending baton once: the second guarded update reports it lost', () => {
    const store = open();
    const { taskId, obs } = seed(store);
    store.write(() => insertBaton(store, baton(taskId, obs)));
    const accept = (by: string) =>
      store.write(() => resolveBaton(store, obs, { status: 'accepted', now: NOW + 1, bySessionId: by }));
    expect(accept('s-codex')).toBe(true);
    expect(accept('s-other')).toBe(false);
    expect(store.write(() => retargetBaton(store, obs, 'any', null))).toBe(false);
    expect(getBaton(store, obs)).toMatchObject({
      status: 'accepted',
      resolvedBySessionId: 's-codex',
      resolvedAt: NOW + 1,
    });
  });

  it('lists the pending, unexpired batons of a participant’s tasks that it did not send', () => {
    const store = open();
    const { taskId, obs } = seed(store);
    store.write(() => insertBaton(store, baton(taskId, obs)));
    expect(openBatonsForSession(store, 's-codex', NOW, 10).map((b) => [b.id, b.participantAgent])).toEqual([
      [obs, 'codex'],
    ]);
    expect(openBatonsForSession(store, 's-claude', NOW, 10)).toEqual([]);
    expect(openBatonsForSession(store, 's-other', NOW, 10)).toEqual([]);
    expect(openBatonsForSession(store, 's-codex', NOW + 1000, 10)).toEqual([]);
  });
});
