/**
 * @module pg/queries/observations-timeline
 * Timelines of the history on PostgreSQL (`sessionTimeline`, `taskTimeline`,
 * `taskUpdatesSince` of `src/observations.ts`): compact rows (`ObservationRef`), bigint
 * columns of raw statements read back as numbers.
 */
import { desc, eq } from 'drizzle-orm';
import type { ObservationRef } from '../../observations';
import { refColumnsOf } from '../../where/observations';
import { pgTables } from '../schema';
import { pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';

const { observations } = pgTables;

export const REF_COLUMNS = 'id, session_id AS "sessionId", task_id AS "taskId", kind, ts, reply_to AS "replyTo"';
export const REF_NUMBERS = ['id', 'taskId', 'ts', 'replyTo'] as const;

const refs = (rows: Record<string, unknown>[]): ObservationRef[] =>
  rows.map((r) => numbered<ObservationRef>(r, REF_NUMBERS));

const refColumns = refColumnsOf(observations);

/** A session's newest `limit` observations, or a window of `limit` centred on `aroundId`. */
export async function sessionTimeline(
  store: PgStore,
  sessionId: string,
  limit: number,
  aroundId?: number,
): Promise<ObservationRef[]> {
  if (aroundId === undefined) {
    const rows = await pgDb(store)
      .select(refColumns)
      .from(observations)
      .where(eq(observations.sessionId, sessionId))
      .orderBy(desc(observations.id))
      .limit(limit);
    return (rows as ObservationRef[]).reverse();
  }
  const side = async (cmp: string, dir: string) =>
    refs(
      (
        await pgClient(store).query(
          `SELECT ${REF_COLUMNS} FROM observations WHERE session_id = $1 AND id ${cmp} $2 ORDER BY id ${dir} LIMIT $3`,
          [sessionId, aroundId, limit],
        )
      ).rows,
    );
  const older = await side('<=', 'DESC');
  const newer = await side('>', 'ASC');
  const newerCount = Math.min(newer.length, limit - Math.min(older.length, Math.ceil(limit / 2)));
  const olderCount = Math.min(older.length, limit - newerCount);
  return [...older.slice(0, olderCount).reverse(), ...newer.slice(0, newerCount)];
}

/** A task thread's observations, newest first. */
export async function taskTimeline(store: PgStore, taskId: number, limit: number): Promise<ObservationRef[]> {
  const rows = await pgDb(store)
    .select(refColumns)
    .from(observations)
    .where(eq(observations.taskId, taskId))
    .orderBy(desc(observations.id))
    .limit(limit);
  return rows as ObservationRef[];
}

/** A task thread's observations after `sinceTs`, oldest first, without `excludeSessionId`'s own. */
export async function taskUpdatesSince(
  store: PgStore,
  taskId: number,
  sinceTs: number,
  limit: number,
  excludeSessionId?: string,
): Promise<ObservationRef[]> {
  const { rows } = await pgClient(store).query(
    `SELECT ${REF_COLUMNS} FROM observations
     WHERE task_id = $1 AND ts > $2 AND session_id IS DISTINCT FROM $3 ORDER BY ts ASC, id ASC LIMIT $4`,
    [taskId, sinceTs, excludeSessionId ?? null, limit],
  );
  return refs(rows);
}
