/**
 * @module pg/queries/observations-read
 * Reading the history on PostgreSQL: the lookups and counts of
 * `src/observations.ts` (timelines: observations-timeline.ts; search: observations-search.ts). Raw statements return bigint
 * columns as strings, read back as numbers; `metadata` is JSON text, read with `::jsonb`.
 */
import { asc, count, eq, inArray } from 'drizzle-orm';
import type { Observation, TokenCountRefinement } from '../../observations';
import { pgTables } from '../schema';
import { inCallersWrite, pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const { observations } = pgTables;

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

/** Parameters from `$first` on: ids, counts, contents. */
export const refineSql = (first = 1) => `UPDATE observations o SET token_count = r.token_count
  FROM unnest($${first}::bigint[], $${first + 1}::bigint[], $${first + 2}::text[]) AS r(id, token_count, content)
  WHERE o.id = r.id AND o.content = r.content`;
const REFINE_SQL = refineSql();

/**
 * Sets counted token counts where the content still matches, in one statement: in the
 * caller's transaction (no savepoint of its own), or alone.
 */
export async function refineTokenCounts(store: PgStore, rows: readonly TokenCountRefinement[]): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  const counts = rows.map((r) => r.tokenCount);
  const contents = rows.map((r) => r.content);
  await inCallersWrite(store, async () => {
    await pgClient(store).query(REFINE_SQL, [ids, counts, contents]);
  });
}
