/**
 * @module pg/queries/links
 * The task-link queries of `src/links.ts` on PostgreSQL; the (low_id, high_id) primary
 * key keeps linking idempotent (INSERT ... ON CONFLICT DO NOTHING).
 */
import { count, eq } from 'drizzle-orm';
import { linkKey, type NewTaskLink, type TaskLink } from '../../links';
import type { Task } from '../../tasks';
import { linkWhere } from '../../where/links';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed } from './_common';

const { taskLinks, tasks } = pgTables;

export async function getTaskLink(store: PgStore, a: number, b: number): Promise<TaskLink | undefined> {
  const rows = await pgDb(store)
    .select()
    .from(taskLinks)
    .where(linkWhere.pair(taskLinks, a, b))
    .limit(1);
  return rows[0] as TaskLink | undefined;
}

export async function insertTaskLink(
  store: PgStore,
  input: NewTaskLink,
  now: number,
): Promise<{ link: TaskLink; created: boolean }> {
  const [lowId, highId] = linkKey(input.taskId, input.otherTaskId);
  const inserted = await pgDb(store)
    .insert(taskLinks)
    .values({ lowId, highId, createdAt: now, createdBy: input.createdBy, note: input.note ?? null })
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return { link: inserted[0] as TaskLink, created: true };
  const existing = await getTaskLink(store, lowId, highId);
  if (!existing) throw new Error(`task link ${lowId}-${highId} vanished during insert`);
  return { link: existing, created: false };
}

export async function deleteTaskLink(store: PgStore, a: number, b: number): Promise<boolean> {
  return (
    changed(
      await pgDb(store)
        .delete(taskLinks)
        .where(linkWhere.pair(taskLinks, a, b)),
    ) > 0
  );
}

export async function listTaskLinks(store: PgStore, taskId: number): Promise<Array<{ link: TaskLink; other: Task }>> {
  return (await pgDb(store)
    .select({ link: taskLinks, other: tasks })
    .from(taskLinks)
    .innerJoin(tasks, eq(tasks.id, linkWhere.otherSide(taskLinks, taskId)))
    .where(linkWhere.ofTask(taskLinks, taskId))
    .orderBy(...linkWhere.order(taskLinks))) as Array<{
    link: TaskLink;
    other: Task;
  }>;
}

export async function countTaskLinks(store: PgStore): Promise<number> {
  const rows = await pgDb(store).select({ n: count() }).from(taskLinks);
  return Number(rows[0]?.n ?? 0);
}
