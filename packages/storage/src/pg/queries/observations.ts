/**
 * @module pg/queries/observations
 * Appending to the history on PostgreSQL: `insertObservation` / `insertObservations`
 * of `src/observations.ts`, as raw statements (the SQLite module's hot path is a cached
 * prepared statement; here `?` becomes `$n`). No index row: `content_tsv` is a stored
 * generated column, searchable when the row commits. JSON columns are text on
 * PostgreSQL, so metadata is stringified as on SQLite.
 */
import type { NewObservation, ObservationTouches } from '../../observations';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const INSERT_SQL = `INSERT INTO observations (session_id, task_id, kind, content, metadata, reply_to, ts, token_count)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`;

function valuesOf(o: NewObservation): unknown[] {
  const metadata = o.metadata ? JSON.stringify(o.metadata) : null;
  return [o.sessionId, o.taskId ?? null, o.kind, o.content, metadata, o.replyTo ?? null, o.ts, o.tokenCount];
}

/** Appends one observation in the caller's transaction (or as one statement of its own); its id. */
export async function insertObservation(store: PgStore, o: NewObservation): Promise<number> {
  const { rows } = await pgClient(store).query(INSERT_SQL, valuesOf(o));
  return Number(rows[0]?.id);
}

/**
 * The insert and both touches as one statement. Unreferenced data-modifying CTEs run to
 * completion after the main query, in order: the row, then the session, then the task,
 * the order of the three statements they replace (and of SQLite's twin).
 */
const INSERT_TOUCHING_SQL = `WITH o AS (INSERT INTO observations (session_id, task_id, kind, content, metadata, reply_to, ts, token_count)
    VALUES ($1::text, $2::bigint, $3, $4, $5, $6, $7::bigint, $8) RETURNING id),
  s AS (UPDATE sessions SET last_heartbeat_at = $7::bigint WHERE $9::boolean AND id = $1::text),
  t AS (UPDATE tasks SET updated_at = $7::bigint WHERE $10::boolean AND id = $2::bigint)
  SELECT id FROM o`;

/** Appends one observation and touches its session and task (see the SQLite twin), in one round trip. */
export async function insertObservationTouching(
  store: PgStore,
  o: NewObservation,
  touches: ObservationTouches,
): Promise<number> {
  const params = [...valuesOf(o), touches.session, touches.task && o.taskId != null];
  const { rows } = await pgClient(store).query(INSERT_TOUCHING_SQL, params);
  return Number(rows[0]?.id);
}

/** Appends many observations in one write transaction; their ids in order. */
export async function insertObservations(store: PgStore, list: readonly NewObservation[]): Promise<number[]> {
  return store.write(async () => {
    const ids: number[] = [];
    for (const o of list) ids.push(await insertObservation(store, o));
    return ids;
  });
}
