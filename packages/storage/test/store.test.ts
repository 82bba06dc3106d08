/**
 * The store itself and the small aggregates: pragmas, write transactions, sessions,
 * task threads, idempotency keys and receipts.
 */
import { expect, it } from 'vitest';
import { handleOf } from '../src/_store';
import {
  activeTasksOfSession,
  BUSY_TIMEOUT_MS,
  countCalls,
  countObservations,
  countSessions,
  countTasks,
  endSession,
  ensureTask,
  findIdempotentResult,
  findTask,
  getSession,
  getSessions,
  insertObservation,
  insertReceipts,
  joinTask,
  listParticipants,
  listReceipts,
  listSessions,
  listTasks,
  type Receipt,
  saveIdempotentResult,
  touchSession,
  touchTask,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

function pragma(store: Parameters<typeof handleOf>[0], name: string): unknown {
  return handleOf(store).sqlite.pragma(name, { simple: true });
}

describeMatrix('openStore', ({ kind, open }) => {
  it('sets foreign keys on and a busy timeout of at least 5 s', () => {
    const store = open();
    expect(pragma(store, 'foreign_keys')).toBe(1);
    expect(Number(pragma(store, 'busy_timeout'))).toBeGreaterThanOrEqual(5000);
    expect(BUSY_TIMEOUT_MS).toBeGreaterThanOrEqual(5000);
  });

  it(kind === 'file' ? 'uses WAL journaling on disk' : 'keeps its journal in memory', () => {
    const store = open();
    expect(pragma(store, 'journal_mode')).toBe(kind === 'file' ? 'wal' : 'memory');
  });

  it('enforces foreign keys: an observation of an unknown session is refused', async () => {
    const store = open();
    await expect(
      insertObservation(store, { sessionId: 'ghost', kind: 'note', content: 'x', ts: 1, tokenCount: 1 }),
    ).rejects.toThrow(/FOREIGN KEY/);
    expect(countObservations(store)).toBe(0);
  });

  it('rolls back everything a throwing write wrote, nested writes included', async () => {
    const store = open();
    await expect(
      store.write(async () => {
        upsertSession(store, { id: 'a' }, 1);
        await store.write(() => upsertSession(store, { id: 'b' }, 1));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(countSessions(store)).toBe(0);
  });

  it('rolls back only a nested write that throws when the outer write catches it', async () => {
    const store = open();
    await store.write(async () => {
      upsertSession(store, { id: 'outer' }, 1);
      try {
        await store.write(() => {
          upsertSession(store, { id: 'inner' }, 1);
          throw new Error('inner refused');
        });
      } catch {
        // the savepoint is gone; the outer write goes on
      }
    });
    expect(getSessions(store, ['outer', 'inner']).map((s) => s.id)).toEqual(['outer']);
  });

  it('refuses every use after close', () => {
    const store = open();
    store.close();
    expect(store.closed).toBe(true);
    expect(() => countSessions(store)).toThrow(/closed/);
    store.close(); // closing twice is harmless
  });
});

describeMatrix('sessions', ({ open }) => {
  it('registers a session once and keeps known fields on a later upsert', () => {
    const store = open();
    const first = upsertSession(store, { id: 's1', ide: 'codex', agent: 'codex', cwd: '/repo' }, 100);
    expect(first).toMatchObject({ id: 's1', ide: 'codex', agent: 'codex', cwd: '/repo', startedAt: 100 });
    const again = upsertSession(store, { id: 's1', ide: 'unknown' }, 200);
    expect(again).toMatchObject({ ide: 'codex', agent: 'codex', cwd: '/repo', startedAt: 100, lastHeartbeatAt: 200 });
    expect(countSessions(store)).toBe(1);
  });

  it("defaults ide to 'unknown' and never moves a heartbeat backwards", () => {
    const store = open();
    expect(upsertSession(store, { id: 's1' }, 500).ide).toBe('unknown');
    expect(upsertSession(store, { id: 's1' }, 100).lastHeartbeatAt).toBe(500);
  });

  it('merges metadata and clears ended_at when a session comes back', () => {
    const store = open();
    upsertSession(store, { id: 's1', metadata: { a: 1 } }, 1);
    expect(endSession(store, 's1', 2)).toBe(true);
    expect(getSession(store, 's1')?.endedAt).toBe(2);
    const back = upsertSession(store, { id: 's1', metadata: { b: 2 } }, 3);
    expect(back.endedAt).toBeNull();
    expect(back.metadata).toEqual({ a: 1, b: 2 });
  });

  it('touches and ends only known sessions', () => {
    const store = open();
    upsertSession(store, { id: 's1' }, 1);
    expect(touchSession(store, 's1', 9)).toBe(true);
    expect(getSession(store, 's1')?.lastHeartbeatAt).toBe(9);
    expect(touchSession(store, 'ghost', 9)).toBe(false);
    expect(endSession(store, 'ghost', 9)).toBe(false);
  });

  it('lists sessions newest first, up to the limit', () => {
    const store = open();
    for (const [i, id] of ['old', 'mid', 'new'].entries()) upsertSession(store, { id }, i * 10);
    expect(listSessions(store, 10).map((s) => s.id)).toEqual(['new', 'mid', 'old']);
    expect(listSessions(store, 2).map((s) => s.id)).toEqual(['new', 'mid']);
  });
});

describeMatrix('task threads', ({ open }) => {
  it('keeps one thread per (repo_root, branch)', async () => {
    const store = open();
    const a = await store.write(() => ensureTask(store, { repoRoot: '/r', branch: 'main', title: 'T' }, 1));
    const b = await store.write(() => ensureTask(store, { repoRoot: '/r', branch: 'main' }, 2));
    const c = await store.write(() => ensureTask(store, { repoRoot: '/r', branch: 'dev' }, 3));
    expect(a.created).toBe(true);
    expect(b).toEqual({ task: a.task, created: false });
    expect(c.task.id).not.toBe(a.task.id);
    expect(countTasks(store)).toBe(2);
    expect(findTask(store, '/r', 'main')?.title).toBe('T');
    expect(findTask(store, '/r', 'nope')).toBeUndefined();
  });

  it('lists threads most recently updated first, filtered by repo and branch', () => {
    const store = open();
    const main = ensureTask(store, { repoRoot: '/r', branch: 'main' }, 1).task;
    ensureTask(store, { repoRoot: '/r', branch: 'dev' }, 2);
    ensureTask(store, { repoRoot: '/other', branch: 'main' }, 3);
    touchTask(store, main.id, 10);
    expect(listTasks(store, { limit: 10 }).map((t) => `${t.repoRoot}:${t.branch}`)).toEqual([
      '/r:main',
      '/other:main',
      '/r:dev',
    ]);
    expect(listTasks(store, { repoRoot: '/r', limit: 10 })).toHaveLength(2);
    expect(listTasks(store, { branch: 'main', limit: 1 })).toHaveLength(1);
  });

  it('joins a session once and re-joining updates its agent', () => {
    const store = open();
    upsertSession(store, { id: 's1' }, 1);
    upsertSession(store, { id: 's2' }, 1);
    const task = ensureTask(store, { repoRoot: '/r', branch: 'main' }, 1).task;
    joinTask(store, task.id, 's1', 'claude', 1);
    joinTask(store, task.id, 's2', 'codex', 2);
    joinTask(store, task.id, 's1', 'claude-2', 3);
    expect(listParticipants(store, [task.id]).map((p) => [p.sessionId, p.agent])).toEqual([
      ['s1', 'claude-2'],
      ['s2', 'codex'],
    ]);
    expect(activeTasksOfSession(store, 's2').map((t) => [t.task.id, t.agent])).toEqual([[task.id, 'codex']]);
    expect(activeTasksOfSession(store, 'ghost')).toEqual([]);
  });
});

describeMatrix('idempotency keys', ({ open }) => {
  it('stores the first result per (tool, key) and refuses a second record', () => {
    const store = open();
    saveIdempotentResult(store, 'task_post', 'k', 'hash-1', { id: 7, nested: [1, 'x'] }, 1);
    expect(findIdempotentResult(store, 'task_post', 'k')).toEqual({
      argsHash: 'hash-1',
      result: { id: 7, nested: [1, 'x'] },
    });
    expect(findIdempotentResult(store, 'task_thread', 'k')).toBeUndefined();
    expect(() => saveIdempotentResult(store, 'task_post', 'k', 'hash-2', {}, 2)).toThrow(/UNIQUE|PRIMARY KEY/);
  });
});

describeMatrix('receipts', ({ open }) => {
  const receipt = (over: Partial<Receipt>): Receipt => ({
    ts: 10,
    operation: 'task_list',
    sessionId: 's1',
    durationMs: 1.5,
    inputTokens: 3,
    outputTokens: 4,
    ok: true,
    errorCode: null,
    errorMessage: null,
    ...over,
  });

  it('counts calls per session and operation since a time', async () => {
    const store = open();
    await insertReceipts(store, [
      receipt({ ts: 10 }),
      receipt({ ts: 20 }),
      receipt({ ts: 30, sessionId: 's2' }),
      receipt({ ts: 40, operation: 'search' }),
    ]);
    expect(countCalls(store, 's1', 'task_list')).toBe(2);
    expect(countCalls(store, 's1', 'task_list', 15)).toBe(1);
    expect(countCalls(store, 's2', 'task_list')).toBe(1);
    expect(countCalls(store, 's1', 'task_ready_for_agent')).toBe(0);
  });

  it('reads receipts back with ok as a boolean and the error fields kept', async () => {
    const store = open();
    await insertReceipts(store, [
      receipt({ ok: false, errorCode: 'TASK_NOT_FOUND', errorMessage: 'task 9 not found' }),
    ]);
    await insertReceipts(store, []);
    expect(listReceipts(store, 0)).toEqual([
      receipt({ ok: false, errorCode: 'TASK_NOT_FOUND', errorMessage: 'task 9 not found' }),
    ]);
    expect(listReceipts(store, 11)).toEqual([]);
  });
});
