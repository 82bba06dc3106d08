/**
 * @module tasks
 * Queries for task threads and their participants. A thread is unique per
 * (repo_root, branch), enforced by a unique index, so two processes opening the same
 * thread at once end up in one row.
 */
import { count, desc, eq, sql } from 'drizzle-orm';
import { dbOf, prepared, type Store, statement } from './_store';
import { taskParticipants, tasks } from './schema';
import { type NewTask, newTaskRow, taskWhere } from './where/tasks';

export type Task = typeof tasks.$inferSelect;
export type Participant = typeof taskParticipants.$inferSelect;

// The single-row reads every task_post makes, as cached statements: drizzle's prepared
// queries still fill placeholders and map each row on every call. The aliases give the
// same camelCase keys, in schema order, as drizzle's select (no column here needs mapping).
const TASK_COLUMNS =
  'id, repo_root AS repoRoot, branch, title, status, created_by_session AS createdBySession, ' +
  'created_at AS createdAt, updated_at AS updatedAt';
const PARTICIPANT_COLUMNS =
  'task_id AS taskId, session_id AS sessionId, agent, joined_at AS joinedAt, left_at AS leftAt';

export function getTask(store: Store, id: number): Task | undefined {
  return statement(store, `SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ?`).get(id) as Task | undefined;
}

export function findTask(store: Store, repoRoot: string, branch: string): Task | undefined {
  return dbOf(store)
    .select()
    .from(tasks)
    .where(taskWhere.ofBranch(tasks, repoRoot, branch))
    .get();
}

export type { NewTask };

/** Returns the thread for (repoRoot, branch), creating it when absent. Call inside `store.write`. */
export function ensureTask(store: Store, input: NewTask, now: number): { task: Task; created: boolean } {
  const existing = findTask(store, input.repoRoot, input.branch);
  if (existing) return { task: existing, created: false };
  const task = dbOf(store).insert(tasks).values(newTaskRow(input, now)).returning().get();
  return { task, created: true };
}

export function touchTask(store: Store, id: number, now: number): void {
  prepared(store, 'touchTask', (db) =>
    db
      .update(tasks)
      .set({ updatedAt: sql`${sql.placeholder('now')}` })
      .where(eq(tasks.id, sql.placeholder('id')))
      .prepare(),
  ).run({ id, now });
}

export interface TaskFilter {
  readonly repoRoot?: string;
  readonly branch?: string;
  readonly limit: number;
}

/** Most recently updated first. */
export function listTasks(store: Store, filter: TaskFilter): Task[] {
  return dbOf(store)
    .select()
    .from(tasks)
    .where(taskWhere.matching(tasks, filter))
    .orderBy(desc(tasks.updatedAt), desc(tasks.id))
    .limit(filter.limit)
    .all();
}

/** Adds the session to the thread, or re-activates it under the given agent. */
export function joinTask(store: Store, taskId: number, sessionId: string, agent: string, now: number): Participant {
  return dbOf(store)
    .insert(taskParticipants)
    .values({ taskId, sessionId, agent, joinedAt: now })
    .onConflictDoUpdate({
      target: [taskParticipants.taskId, taskParticipants.sessionId],
      set: { agent, leftAt: null },
    })
    .returning()
    .get();
}

export function getParticipant(store: Store, taskId: number, sessionId: string): Participant | undefined {
  return statement(
    store,
    `SELECT ${PARTICIPANT_COLUMNS} FROM task_participants WHERE task_id = ? AND session_id = ?`,
  ).get(taskId, sessionId) as Participant | undefined;
}

/** Active participants of the given threads, oldest join first. */
export function listParticipants(store: Store, taskIds: readonly number[]): Participant[] {
  if (taskIds.length === 0) return [];
  return dbOf(store)
    .select()
    .from(taskParticipants)
    .where(taskWhere.activeParticipants(taskParticipants, taskIds))
    .orderBy(taskParticipants.joinedAt)
    .all();
}

/** The active threads a session takes part in, with the agent it joined as. */
export function activeTasksOfSession(store: Store, sessionId: string): Array<{ task: Task; agent: string }> {
  return dbOf(store)
    .select({ task: tasks, agent: taskParticipants.agent })
    .from(taskParticipants)
    .innerJoin(tasks, eq(tasks.id, taskParticipants.taskId))
    .where(taskWhere.activeOfSession(taskParticipants, tasks, sessionId))
    .orderBy(desc(tasks.updatedAt))
    .all();
}

export function countTasks(store: Store): number {
  return dbOf(store).select({ n: count() }).from(tasks).get()?.n ?? 0;
}

/** Threads matching a task_list filter (repository and/or branch), all of them. */
export function countTasksMatching(store: Store, filter: Omit<TaskFilter, 'limit'>): number {
  return dbOf(store).select({ n: count() }).from(tasks).where(taskWhere.matching(tasks, filter)).get()?.n ?? 0;
}
