/**
 * @module pg/queries/task-history
 * The bulk task-history reads of `src/task-history.ts` on PostgreSQL (same rows and
 * order). Metadata is JSON text here as on SQLite: `->>` reads `$.file_path`.
 */
import type { TaskFileTouch, TaskHistory } from '../../task-history';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const HISTORY_SQL = `SELECT t.id, t.repo_root AS "repoRoot", t.branch, t.status, t.created_at AS "createdAt",
    (SELECT COUNT(*) FROM observations o WHERE o.task_id = t.id) AS "observationCount",
    (SELECT COUNT(*) FROM batons b WHERE b.task_id = t.id AND b.kind = 'handoff') AS "handoffCount",
    (SELECT COUNT(*) FROM plan_subtasks s WHERE s.task_id = t.id)
      + (SELECT COUNT(*) FROM plan_subtasks s JOIN plans p ON p.id = s.plan_id WHERE p.spec_task_id = t.id) AS "subtaskCount",
    COALESCE(
      (SELECT MAX(s.completed_at) FROM plan_subtasks s WHERE s.task_id = t.id AND s.status = 'completed'),
      (SELECT MAX(p.archived_at) FROM plans p WHERE p.spec_task_id = t.id AND p.status = 'archived'),
      CASE WHEN t.status IN ('completed', 'done', 'archived') THEN t.updated_at END) AS "completedAt"
  FROM tasks t WHERE t.id = ANY($1::bigint[]) ORDER BY t.id`;

const num = (v: unknown): number => Number(v);

export async function taskHistories(store: PgStore, taskIds: readonly number[]): Promise<TaskHistory[]> {
  if (taskIds.length === 0) return [];
  const { rows } = await pgClient(store).query(HISTORY_SQL, [[...taskIds]]);
  return rows.map((r: Record<string, unknown>) => ({
    id: num(r.id),
    repoRoot: String(r.repoRoot),
    branch: String(r.branch),
    status: String(r.status),
    createdAt: num(r.createdAt),
    observationCount: num(r.observationCount),
    handoffCount: num(r.handoffCount),
    subtaskCount: num(r.subtaskCount),
    completedAt: r.completedAt == null ? null : num(r.completedAt),
  }));
}

const TOUCHES_SQL = `SELECT "taskId", "filePath", MIN(ts) AS "firstTs" FROM (
    SELECT c.task_id AS "taskId", c.file_path AS "filePath", c.claimed_at AS ts FROM file_claims c
    WHERE c.task_id = ANY($1::bigint[])
    UNION ALL
    SELECT o.task_id, o.metadata::jsonb ->> 'file_path', o.ts FROM observations o
    WHERE o.task_id = ANY($1::bigint[]) AND o.kind = 'edit'
      AND o.metadata::jsonb ->> 'file_path' IS NOT NULL) u
  GROUP BY "taskId", "filePath" ORDER BY "taskId", "firstTs", "filePath" COLLATE "C"`;

export async function taskFileTouches(store: PgStore, taskIds: readonly number[]): Promise<TaskFileTouch[]> {
  if (taskIds.length === 0) return [];
  const { rows } = await pgClient(store).query(TOUCHES_SQL, [[...taskIds]]);
  return rows.map((r: Record<string, unknown>) => ({
    taskId: num(r.taskId),
    filePath: String(r.filePath),
    firstTs: num(r.firstTs),
  }));
}
