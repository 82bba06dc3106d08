/**
 * @module task-warnings
 * The warning signs of past task threads, read in bulk for suggestions: observations
 * of warning kinds (blockers, failures) and handoffs nobody accepted in time.
 */
import { type Store, statement } from './_store';

export interface TaskWarning {
  readonly taskId: number;
  /** The observation kind, or `expired-handoff` for a handoff nobody accepted in time. */
  readonly kind: string;
  /** The observation (or handoff observation) id. */
  readonly observationId: number;
  /** At most 200 characters: the observation's opening or the handoff's summary. */
  readonly text: string;
  readonly ts: number;
}

/**
 * Warning signs in these tasks, newest first, at most `limit`: observations of the given
 * kinds, and handoffs that expired (by status, or still pending past `now`). Read by
 * kind (`+task_id` keeps SQLite off the task index): warning kinds are rare, while the
 * rows of a few long tasks can be most of the store (84 ms at 100k by task, 0.1 by kind).
 */
export function taskWarnings(
  store: Store,
  taskIds: readonly number[],
  kinds: readonly string[],
  now: number,
  limit: number,
): TaskWarning[] {
  if (taskIds.length === 0) return [];
  return statement(
    store,
    `SELECT * FROM (
       SELECT o.task_id AS taskId, o.kind, o.id AS observationId, substr(o.content, 1, 200) AS text, o.ts FROM observations o
       WHERE +o.task_id IN (SELECT value FROM json_each(@ids)) AND o.kind IN (SELECT value FROM json_each(@kinds))
       UNION ALL
       SELECT b.task_id, 'expired-handoff', b.id, substr(b.summary, 1, 200), b.expires_at FROM batons b
       WHERE b.task_id IN (SELECT value FROM json_each(@ids)) AND b.kind = 'handoff'
         AND (b.status = 'expired' OR (b.status = 'pending' AND b.expires_at <= @now)))
     ORDER BY ts DESC, observationId DESC LIMIT @limit`,
  ).all({ ids: JSON.stringify(taskIds), kinds: JSON.stringify(kinds), now, limit }) as TaskWarning[];
}
