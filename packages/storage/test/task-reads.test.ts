/**
 * The single-row task reads every task_post makes (`getTask`, `getParticipant`) run as
 * cached statements, not drizzle queries: they must return what drizzle's select
 * returns, key for key, null for null, on a real SQLite file.
 */
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { dbOf, type Store } from '../src/_store';
import { ensureTask, getParticipant, getTask, joinTask, upsertSession } from '../src/index';
import { taskParticipants, tasks } from '../src/schema';
import { describeMatrix } from './_matrix';

// Past 2^32 ms, as real timestamps are: the reads must keep them exact numbers.
const NOW = 1_790_000_000_123;

const drizzleTask = (store: Store, id: number) => dbOf(store).select().from(tasks).where(eq(tasks.id, id)).get();

const drizzleParticipant = (store: Store, taskId: number, sessionId: string) =>
  dbOf(store)
    .select()
    .from(taskParticipants)
    .where(and(eq(taskParticipants.taskId, taskId), eq(taskParticipants.sessionId, sessionId)))
    .get();

describeMatrix('task reads', ({ open }) => {
  it('getTask returns the row drizzle returns, every column set', () => {
    const store = open();
    upsertSession(store, { id: 'codex@a', ide: 'codex' }, NOW);
    const { task } = ensureTask(
      store,
      { repoRoot: '/repo', branch: 'feat/x', title: 'A title', createdBySession: 'codex@a' },
      NOW,
    );
    dbOf(store)
      .update(tasks)
      .set({ status: 'archived', updatedAt: NOW + 7 })
      .where(eq(tasks.id, task.id))
      .run();

    const fast = getTask(store, task.id);
    const slow = drizzleTask(store, task.id);
    expect(slow).toMatchObject({ title: 'A title', createdBySession: 'codex@a', status: 'archived' });
    expect(fast).toStrictEqual(slow);
    expect(Object.keys(fast ?? {})).toEqual(Object.keys(slow ?? {}));
  });

  it('getTask returns nulls where drizzle does, and undefined for no row', () => {
    const store = open();
    const { task } = ensureTask(store, { repoRoot: '/repo', branch: 'main' }, NOW);

    const fast = getTask(store, task.id);
    expect(fast).toMatchObject({ title: null, createdBySession: null });
    expect(fast).toStrictEqual(drizzleTask(store, task.id));
    expect(getTask(store, task.id + 1)).toBeUndefined();
    expect(drizzleTask(store, task.id + 1)).toBeUndefined();
  });

  it('getParticipant returns the row drizzle returns, left or not, and undefined for no row', () => {
    const store = open();
    upsertSession(store, { id: 'claude@b', ide: 'claude-code' }, NOW);
    upsertSession(store, { id: 'codex@c', ide: 'codex' }, NOW);
    const { task } = ensureTask(store, { repoRoot: '/repo', branch: 'main' }, NOW);
    joinTask(store, task.id, 'claude@b', 'claude', NOW + 1);
    joinTask(store, task.id, 'codex@c', 'codex', NOW + 2);
    dbOf(store)
      .update(taskParticipants)
      .set({ leftAt: NOW + 3 })
      .where(eq(taskParticipants.sessionId, 'codex@c'))
      .run();

    for (const sessionId of ['claude@b', 'codex@c']) {
      const fast = getParticipant(store, task.id, sessionId);
      const slow = drizzleParticipant(store, task.id, sessionId);
      expect(fast).toStrictEqual(slow);
      expect(Object.keys(fast ?? {})).toEqual(Object.keys(slow ?? {}));
    }
    expect(getParticipant(store, task.id, 'codex@c')?.leftAt).toBe(NOW + 3);
    expect(getParticipant(store, task.id, 'claude@b')?.leftAt).toBeNull();
    expect(getParticipant(store, task.id, 'nobody')).toBeUndefined();
    expect(getParticipant(store, task.id + 1, 'claude@b')).toBeUndefined();
  });
});
