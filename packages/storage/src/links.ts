/**
 * @module links
 * Queries for links between task threads. A link is bidirectional and stored once, as
 * (low_id, high_id) with low_id < high_id; the primary key makes linking idempotent
 * even when two processes link the same pair at once.
 */
import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import { taskLinks, tasks } from './schema';
import type { Task } from './tasks';

export type TaskLink = typeof taskLinks.$inferSelect;

export interface NewTaskLink {
  readonly taskId: number;
  readonly otherTaskId: number;
  readonly createdBy: string;
  readonly note?: string | null;
}

/** The stored orientation of a pair: [low, high]. */
export function linkKey(a: number, b: number): [number, number] {
  return a < b ? [a, b] : [b, a];
}

export function getTaskLink(store: Store, a: number, b: number): TaskLink | undefined {
  const [lowId, highId] = linkKey(a, b);
  return dbOf(store)
    .select()
    .from(taskLinks)
    .where(and(eq(taskLinks.lowId, lowId), eq(taskLinks.highId, highId)))
    .get();
}

/** Links the pair unless already linked; returns the stored link and whether this call made it. */
export function insertTaskLink(store: Store, input: NewTaskLink, now: number): { link: TaskLink; created: boolean } {
  const [lowId, highId] = linkKey(input.taskId, input.otherTaskId);
  const inserted = dbOf(store)
    .insert(taskLinks)
    .values({ lowId, highId, createdAt: now, createdBy: input.createdBy, note: input.note ?? null })
    .onConflictDoNothing()
    .returning()
    .get();
  if (inserted) return { link: inserted, created: true };
  const existing = getTaskLink(store, lowId, highId);
  if (!existing) throw new Error(`task link ${lowId}-${highId} vanished during insert`);
  return { link: existing, created: false };
}

/** Removes the link between the pair; false when there was none. */
export function deleteTaskLink(store: Store, a: number, b: number): boolean {
  const [lowId, highId] = linkKey(a, b);
  const result = dbOf(store)
    .delete(taskLinks)
    .where(and(eq(taskLinks.lowId, lowId), eq(taskLinks.highId, highId)))
    .run();
  return result.changes > 0;
}

/** The links of one task, each with the task on the other side; newest first. */
export function listTaskLinks(store: Store, taskId: number): Array<{ link: TaskLink; other: Task }> {
  const otherSide = sql`CASE WHEN ${taskLinks.lowId} = ${taskId} THEN ${taskLinks.highId} ELSE ${taskLinks.lowId} END`;
  return dbOf(store)
    .select({ link: taskLinks, other: tasks })
    .from(taskLinks)
    .innerJoin(tasks, eq(tasks.id, otherSide))
    .where(or(eq(taskLinks.lowId, taskId), eq(taskLinks.highId, taskId)))
    .orderBy(desc(taskLinks.createdAt), desc(taskLinks.lowId), desc(taskLinks.highId))
    .all();
}

export function countTaskLinks(store: Store): number {
  return dbOf(store).select({ n: count() }).from(taskLinks).get()?.n ?? 0;
}
