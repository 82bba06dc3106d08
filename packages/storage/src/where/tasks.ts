/**
 * @module where/tasks
 * The WHERE conditions and new-row values of the task-thread queries, shared by
 * `src/tasks.ts` (SQLite) and `src/pg/queries/tasks.ts` (PostgreSQL).
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { taskParticipants, tasks } from '../schema';
import type { Arg, ColsOf } from './_columns';
import { eqIf } from './_common';

/** The `tasks` columns these builders read. */
export type TaskCols = ColsOf<typeof tasks, 'id' | 'repoRoot' | 'branch' | 'status'>;

/** The `taskParticipants` columns these builders read. */
export type ParticipantCols = ColsOf<typeof taskParticipants, 'taskId' | 'sessionId' | 'leftAt'>;

export const taskWhere = {
  /** The thread of (repoRoot, branch). */
  ofBranch: (t: TaskCols, repoRoot: string, branch: string) => and(eq(t.repoRoot, repoRoot), eq(t.branch, branch)),
  /** A task_list filter: repository and/or branch; none is every thread. */
  matching: (t: TaskCols, filter: { readonly repoRoot?: string; readonly branch?: string }) =>
    and(eqIf(t.repoRoot, filter.repoRoot), eqIf(t.branch, filter.branch)),
  /** The session's participation in a thread (values or placeholders). */
  participant: (p: ParticipantCols, taskId: Arg<number>, sessionId: Arg<string>) =>
    and(eq(p.taskId, taskId), eq(p.sessionId, sessionId)),
  /** Active participants of these threads. */
  activeParticipants: (p: ParticipantCols, taskIds: readonly number[]) =>
    and(inArray(p.taskId, [...taskIds]), isNull(p.leftAt)),
  /** The session's participation in active threads (joined to `tasks`). */
  activeOfSession: (p: ParticipantCols, t: TaskCols, sessionId: string) =>
    and(eq(p.sessionId, sessionId), isNull(p.leftAt), eq(t.status, 'active')),
};

/** A thread to open: (repoRoot, branch), titled and attributed when known. */
export interface NewTask {
  readonly repoRoot: string;
  readonly branch: string;
  readonly title?: string | null;
  readonly createdBySession?: string | null;
}

/** The values of a new thread created `now`. */
export const newTaskRow = (input: NewTask, now: number) => ({
  repoRoot: input.repoRoot,
  branch: input.branch,
  title: input.title ?? null,
  createdBySession: input.createdBySession ?? null,
  createdAt: now,
  updatedAt: now,
});
