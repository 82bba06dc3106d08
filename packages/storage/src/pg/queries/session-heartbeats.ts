/**
 * @module pg/queries/session-heartbeats
 * The liveness queries of `src/session-heartbeats.ts` on PostgreSQL. Heartbeats move
 * forward only (`greatest`); a batch is one UPDATE over the beats, inside a write.
 */
import { eq } from 'drizzle-orm';
import { pgTables } from '../schema';
import { inCallersWrite, pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed } from './_common';

const { sessions } = pgTables;

export async function touchSession(store: PgStore, id: string, now: number): Promise<boolean> {
  return changed(await pgDb(store).update(sessions).set({ lastHeartbeatAt: now }).where(eq(sessions.id, id))) > 0;
}

/** Nothing to prepare on PostgreSQL (the pool's statements need no warm-up). */
export async function prepareTouchSession(_store: PgStore): Promise<void> {}

export async function endSession(store: PgStore, id: string, now: number): Promise<boolean> {
  return changed(await pgDb(store).update(sessions).set({ endedAt: now }).where(eq(sessions.id, id))) > 0;
}

/**
 * A session row another transaction holds is passed over (SKIP LOCKED), not waited for:
 * the holder is that session's own call, which touches the heartbeat itself. Waiting
 * would queue bookkeeping behind every write of the session, and lock the rows in an
 * order other writers do not share (deadlocks between servers on one database).
 */
export const heartbeatSql = (
  ids = 1,
  times = 2,
) => `UPDATE sessions s SET last_heartbeat_at = greatest(s.last_heartbeat_at, b.ts)
  FROM (SELECT id, max(ts) AS ts FROM unnest($${ids}::text[], $${times}::bigint[]) AS u(id, ts) GROUP BY id) b
  WHERE s.id = b.id
    AND s.id IN (SELECT id FROM sessions WHERE id = ANY($${ids}::text[]) ORDER BY id FOR UPDATE SKIP LOCKED)`;
const HEARTBEAT_SQL = heartbeatSql();

export async function heartbeatSessions(
  store: PgStore,
  beats: ReadonlyArray<{ readonly id: string; readonly ts: number }>,
): Promise<void> {
  if (beats.length === 0) return;
  const ids = beats.map((b) => b.id);
  const times = beats.map((b) => b.ts);
  // Inside a caller's transaction (the receipts rider), no savepoint of its own.
  await inCallersWrite(store, async () => {
    await pgClient(store).query(HEARTBEAT_SQL, [ids, times]);
  });
}
