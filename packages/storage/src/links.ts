/**
 * @module links
 * Queries for links between task threads. A link is bidirectional and stored once, as
 * (low_id, high_id) with low_id < high_id; the primary key makes linking idempotent
 * even when two processes link the same pair at once.
 */
import { count, eq } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import { taskLinks, tasks } from './schema';
import type { Task } from './tasks';
import { linkKey, linkWhere } from './where/links';

export type TaskLink = typeof taskLinks.$inferSelect;

export interface NewTaskLink {
  readonly taskId: number;
  readonly otherTaskId: number;
  readonly createdBy: string;
  readonly note?: string | null;
}

export { linkKey };

export function getTaskLink(store: Store, a: number, b: number): TaskLink | undefined {
  return dbOf(store)
    .select()
    .from(taskLinks)
    .where(linkWhere.pair(taskLinks, a, b))
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
  const result = dbOf(store)
    .delete(taskLinks)
    .where(linkWhere.pair(taskLinks, a, b))
    .run();
  return result.changes > 0;
}

/** The links of one task, each with the task on the other side; newest first. */
export function listTaskLinks(store: Store, taskId: number): Array<{ link: TaskLink; other: Task }> {
  return dbOf(store)
    .select({ link: taskLinks, other: tasks })
    .from(taskLinks)
    .innerJoin(tasks, eq(tasks.id, linkWhere.otherSide(taskLinks, taskId)))
    .where(linkWhere.ofTask(taskLinks, taskId))
    .orderBy(...linkWhere.order(taskLinks))
    .all();
}

export function countTaskLinks(store: Store): number {
  return dbOf(store).select({ n: count() }).from(taskLinks).get()?.n ?? 0;
}
