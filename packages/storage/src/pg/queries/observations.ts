/**
 * @module pg/queries/observations
 * Appending to the history on PostgreSQL: `insertObservation` / `insertObservations`
 * of `src/observations.ts`, as raw statements (the SQLite module's hot path is a cached
 * prepared statement; here `?` becomes `$n`). No index row: `content_tsv` is a stored
 * generated column, searchable when the row commits. JSON columns are text on
 * PostgreSQL, so metadata is stringified as on SQLite.
 */
import type { NewObservation } from '../../observations';
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

/** Appends many observations in one write transaction; their ids in order. */
export async function insertObservations(store: PgStore, list: readonly NewObservation[]): Promise<number[]> {
  return store.write(async () => {
    const ids: number[] = [];
    for (const o of list) ids.push(await insertObservation(store, o));
    return ids;
  });
}
