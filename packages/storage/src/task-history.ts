/**
 * @module task-history
 * What past task threads did, read in bulk for suggestions: each task's shape (size,
 * handoffs, sub-tasks, when it completed) and the files it claimed or edited first.
 * Their warning signs: task-warnings.ts.
 */
import { type Store, statement } from './_store';

export interface TaskHistory {
  readonly id: number;
  readonly repoRoot: string;
  readonly branch: string;
  readonly status: string;
  readonly createdAt: number;
  readonly observationCount: number;
  readonly handoffCount: number;
  /** Plan sub-tasks on this thread, or of the plan whose spec thread it is. */
  readonly subtaskCount: number;
  /** When the task's sub-task completed or its plan was archived; null while open. */
  readonly completedAt: number | null;
}

/** The history of these tasks (unknown ids are skipped), in id order. */
export function taskHistories(store: Store, taskIds: readonly number[]): TaskHistory[] {
  if (taskIds.length === 0) return [];
  return statement(
    store,
    `SELECT t.id, t.repo_root AS repoRoot, t.branch, t.status, t.created_at AS createdAt,
       (SELECT COUNT(*) FROM observations o WHERE o.task_id = t.id) AS observationCount,
       (SELECT COUNT(*) FROM batons b WHERE b.task_id = t.id AND b.kind = 'handoff') AS handoffCount,
       (SELECT COUNT(*) FROM plan_subtasks s WHERE s.task_id = t.id)
         + (SELECT COUNT(*) FROM plan_subtasks s JOIN plans p ON p.id = s.plan_id WHERE p.spec_task_id = t.id) AS subtaskCount,
       COALESCE(
         (SELECT MAX(s.completed_at) FROM plan_subtasks s WHERE s.task_id = t.id AND s.status = 'completed'),
         (SELECT MAX(p.archived_at) FROM plans p WHERE p.spec_task_id = t.id AND p.status = 'archived'),
         CASE WHEN t.status IN ('completed', 'done', 'archived') THEN t.updated_at END) AS completedAt
     FROM tasks t WHERE t.id IN (SELECT value FROM json_each(?)) ORDER BY t.id`,
  ).all(JSON.stringify(taskIds)) as TaskHistory[];
}

export interface TaskFileTouch {
  readonly taskId: number;
  readonly filePath: string;
  /** When the task first claimed or edited the file. */
  readonly firstTs: number;
}

/** Files each task claimed (file_claims) or edited (`edit` observations), with the first time. */
export function taskFileTouches(store: Store, taskIds: readonly number[]): TaskFileTouch[] {
  if (taskIds.length === 0) return [];
  return statement(
    store,
    `SELECT taskId, filePath, MIN(ts) AS firstTs FROM (
       SELECT c.task_id AS taskId, c.file_path AS filePath, c.claimed_at AS ts FROM file_claims c
       WHERE c.task_id IN (SELECT value FROM json_each(@ids))
       UNION ALL
       SELECT o.task_id, json_extract(o.metadata, '$.file_path'), o.ts FROM observations o
       WHERE o.task_id IN (SELECT value FROM json_each(@ids)) AND o.kind = 'edit'
         AND json_extract(o.metadata, '$.file_path') IS NOT NULL)
     GROUP BY taskId, filePath ORDER BY taskId, firstTs, filePath`,
  ).all({ ids: JSON.stringify(taskIds) }) as TaskFileTouch[];
}
