/**
 * @module pg/queries/task-warnings
 * `taskWarnings` of `src/task-warnings.ts` on PostgreSQL: the same union of warning
 * observations and expired handoffs, newest first (ties by id, descending).
 */
import type { TaskWarning } from '../../task-warnings';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const WARNINGS_SQL = `SELECT * FROM (
    SELECT o.task_id AS "taskId", o.kind, o.id AS "observationId", substr(o.content, 1, 200) AS text, o.ts FROM observations o
    WHERE o.task_id = ANY($1::bigint[]) AND o.kind = ANY($2::text[])
    UNION ALL
    SELECT b.task_id, 'expired-handoff', b.id, substr(b.summary, 1, 200), b.expires_at FROM batons b
    WHERE b.task_id = ANY($1::bigint[]) AND b.kind = 'handoff'
      AND (b.status = 'expired' OR (b.status = 'pending' AND b.expires_at <= $3))) w
  ORDER BY ts DESC, "observationId" DESC LIMIT $4`;

export async function taskWarnings(
  store: PgStore,
  taskIds: readonly number[],
  kinds: readonly string[],
  now: number,
  limit: number,
): Promise<TaskWarning[]> {
  if (taskIds.length === 0) return [];
  const { rows } = await pgClient(store).query(WARNINGS_SQL, [[...taskIds], [...kinds], now, limit]);
  return rows.map((r: Record<string, unknown>) => ({
    taskId: Number(r.taskId),
    kind: String(r.kind),
    observationId: Number(r.observationId),
    text: String(r.text),
    ts: Number(r.ts),
  }));
}
