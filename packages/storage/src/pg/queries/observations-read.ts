/**
 * @module pg/queries/observations-read
 * Reading the history on PostgreSQL: the lookups, timelines and counts of
 * `src/observations.ts` (search: observations-search.ts). Raw statements return bigint
 * columns as strings, read back as numbers; `metadata` is JSON text, read with `::jsonb`.
 */
import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Observation, ObservationRef, TokenCountRefinement } from '../../observations';
import { pgTables } from '../schema';
import { pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';

const { observations } = pgTables;

export const REF_COLUMNS = 'id, session_id AS "sessionId", task_id AS "taskId", kind, ts, reply_to AS "replyTo"';
export const REF_NUMBERS = ['id', 'taskId', 'ts', 'replyTo'] as const;

const refs = (rows: Record<string, unknown>[]): ObservationRef[] =>
  rows.map((r) => numbered<ObservationRef>(r, REF_NUMBERS));

const refColumns = {
  id: observations.id,
  sessionId: observations.sessionId,
  taskId: observations.taskId,
  kind: observations.kind,
  ts: observations.ts,
  replyTo: observations.replyTo,
};

/** Observation rows keep `metadata` as parsed JSON, as on SQLite, without the search column. */
function parsed({ contentTsv, ...r }: Record<string, unknown>): Observation {
  return { ...r, metadata: typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata } as Observation;
}

export async function getObservation(store: PgStore, id: number): Promise<Observation | undefined> {
  const rows = await pgDb(store).select().from(observations).where(eq(observations.id, id)).limit(1);
  return rows[0] ? parsed(rows[0]) : undefined;
}

/** The observations with these ids, in the order given; unknown ids are skipped. */
export async function getObservations(store: PgStore, ids: readonly number[]): Promise<Observation[]> {
  if (ids.length === 0) return [];
  const rows = await pgDb(store)
    .select()
    .from(observations)
    .where(inArray(observations.id, [...new Set(ids)]));
  const byId = new Map(rows.map((r) => [Number(r.id), parsed(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

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

export async function countObservations(store: PgStore): Promise<number> {
  const rows = await pgDb(store).select({ n: count() }).from(observations);
  return Number(rows[0]?.n ?? 0);
}

/** Ids of observations replying to `id`, oldest first. */
export async function repliesTo(store: PgStore, id: number): Promise<number[]> {
  const rows = await pgDb(store)
    .select({ id: observations.id })
    .from(observations)
    .where(eq(observations.replyTo, id))
    .orderBy(asc(observations.id));
  return rows.map((r) => Number(r.id));
}

/** Files a session edited on a task since `sinceTs`, with the time of the latest edit of each. */
export async function editedFilesSince(
  store: PgStore,
  taskId: number,
  sessionId: string,
  sinceTs: number,
): Promise<Array<{ filePath: string; lastTs: number }>> {
  const { rows } = await pgClient(store).query(
    `SELECT metadata::jsonb ->> 'file_path' AS "filePath", MAX(ts) AS "lastTs" FROM observations
     WHERE task_id = $1 AND session_id = $2 AND kind = 'edit' AND ts >= $3 AND metadata::jsonb ->> 'file_path' IS NOT NULL
     GROUP BY 1 ORDER BY 2 DESC`,
    [taskId, sessionId, sinceTs],
  );
  return rows.map((r) => ({ filePath: String(r.filePath), lastTs: Number(r.lastTs) }));
}

/** Sets counted token counts where the content still matches, in the caller's transaction (or its own). */
export async function refineTokenCounts(store: PgStore, rows: readonly TokenCountRefinement[]): Promise<void> {
  if (rows.length === 0) return;
  await store.write(async () => {
    for (const r of rows) {
      await pgClient(store).query('UPDATE observations SET token_count = $1 WHERE id = $2 AND content = $3', [
        r.tokenCount,
        r.id,
        r.content,
      ]);
    }
  });
}
