/**
 * @module pg/queries/tasks
 * The task-thread queries of `src/tasks.ts` on PostgreSQL. `ensureTask` never reads
 * then writes: INSERT ... ON CONFLICT (repo_root, branch) DO NOTHING, then the row.
 * Limit: `listParticipants` orders by join time only, as on SQLite; equal join times
 * come in SQLite's rowid order there and in an unspecified order here.
 */
import { count, desc, eq } from 'drizzle-orm';
import type { NewTask, Participant, Task, TaskFilter } from '../../tasks';
import { newTaskRow, taskWhere } from '../../where/tasks';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const { taskParticipants, tasks } = pgTables;

export async function getTask(store: PgStore, id: number): Promise<Task | undefined> {
  return (await pgDb(store).select().from(tasks).where(eq(tasks.id, id)).limit(1))[0] as Task | undefined;
}

export async function findTask(store: PgStore, repoRoot: string, branch: string): Promise<Task | undefined> {
  const where = taskWhere.ofBranch(tasks, repoRoot, branch);
  return (await pgDb(store).select().from(tasks).where(where).limit(1))[0] as Task | undefined;
}

export async function ensureTask(
  store: PgStore,
  input: NewTask,
  now: number,
): Promise<{ task: Task; created: boolean }> {
  const inserted = await pgDb(store).insert(tasks).values(newTaskRow(input, now)).onConflictDoNothing().returning();
  if (inserted[0]) return { task: inserted[0] as Task, created: true };
  const existing = await findTask(store, input.repoRoot, input.branch);
  if (!existing) throw new Error(`task ${input.repoRoot}@${input.branch} vanished during insert`);
  return { task: existing, created: false };
}

export async function touchTask(store: PgStore, id: number, now: number): Promise<void> {
  await pgDb(store).update(tasks).set({ updatedAt: now }).where(eq(tasks.id, id));
}

export async function listTasks(store: PgStore, filter: TaskFilter): Promise<Task[]> {
  return (await pgDb(store)
    .select()
    .from(tasks)
    .where(taskWhere.matching(tasks, filter))
    .orderBy(desc(tasks.updatedAt), desc(tasks.id))
    .limit(filter.limit)) as Task[];
}

export async function joinTask(
  store: PgStore,
  taskId: number,
  sessionId: string,
  agent: string,
  now: number,
): Promise<Participant> {
  const rows = await pgDb(store)
    .insert(taskParticipants)
    .values({ taskId, sessionId, agent, joinedAt: now })
    .onConflictDoUpdate({ target: [taskParticipants.taskId, taskParticipants.sessionId], set: { agent, leftAt: null } })
    .returning();
  return rows[0] as Participant;
}

export async function getParticipant(
  store: PgStore,
  taskId: number,
  sessionId: string,
): Promise<Participant | undefined> {
  const where = taskWhere.participant(taskParticipants, taskId, sessionId);
  return (await pgDb(store).select().from(taskParticipants).where(where).limit(1))[0] as Participant | undefined;
}

export async function listParticipants(store: PgStore, taskIds: readonly number[]): Promise<Participant[]> {
  if (taskIds.length === 0) return [];
  return (await pgDb(store)
    .select()
    .from(taskParticipants)
    .where(taskWhere.activeParticipants(taskParticipants, taskIds))
    .orderBy(taskParticipants.joinedAt)) as Participant[];
}

export async function activeTasksOfSession(
  store: PgStore,
  sessionId: string,
): Promise<Array<{ task: Task; agent: string }>> {
  return (await pgDb(store)
    .select({ task: tasks, agent: taskParticipants.agent })
    .from(taskParticipants)
    .innerJoin(tasks, eq(tasks.id, taskParticipants.taskId))
    .where(taskWhere.activeOfSession(taskParticipants, tasks, sessionId))
    .orderBy(desc(tasks.updatedAt))) as Array<{ task: Task; agent: string }>;
}

export async function countTasks(store: PgStore): Promise<number> {
  return Number((await pgDb(store).select({ n: count() }).from(tasks))[0]?.n ?? 0);
}

export async function countTasksMatching(store: PgStore, filter: Omit<TaskFilter, 'limit'>): Promise<number> {
  return Number(
    (await pgDb(store).select({ n: count() }).from(tasks).where(taskWhere.matching(tasks, filter)))[0]?.n ?? 0,
  );
}
