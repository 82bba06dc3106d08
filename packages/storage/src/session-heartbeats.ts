/**
 * @module session-heartbeats
 * A session's liveness: its heartbeat moves forward on every sign of life (a call, a
 * hook event, a receipt), never back, and it ends when its IDE says so. Lanes and
 * rescue read these times to tell live, idle, stalled and dead sessions apart.
 */
import { eq, sql } from 'drizzle-orm';
import { type Drizzle, dbOf, insideWrite, prepared, type Store, statement } from './_store';
import { sessions } from './schema';

const touchSessionQuery = (db: Drizzle) =>
  db
    .update(sessions)
    .set({ lastHeartbeatAt: sql`${sql.placeholder('now')}` })
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare();

/** Refreshes the heartbeat of a known session; returns false when it does not exist. */
export function touchSession(store: Store, id: string, now: number): boolean {
  const result = prepared(store, 'touchSession', touchSessionQuery).run({ id, now });
  return result.changes > 0;
}

/**
 * Builds and prepares `touchSession`'s statement without running it: a serving
 * process's warm-up (every post and call touches a session), writing nothing.
 */
export function prepareTouchSession(store: Store): void {
  prepared(store, 'touchSession', touchSessionQuery);
}

export function endSession(store: Store, id: string, now: number): boolean {
  const result = dbOf(store).update(sessions).set({ endedAt: now }).where(eq(sessions.id, id)).run();
  return result.changes > 0;
}

const HEARTBEAT_SQL = 'UPDATE sessions SET last_heartbeat_at = max(last_heartbeat_at, ?) WHERE id = ?';

/** Moves heartbeats forward (never back) for sessions that showed a sign of life at `ts`; unknown ids are skipped. */
export async function heartbeatSessions(
  store: Store,
  beats: ReadonlyArray<{ readonly id: string; readonly ts: number }>,
): Promise<void> {
  if (beats.length === 0) return;
  const update = statement(store, HEARTBEAT_SQL);
  const run = () => {
    for (const beat of beats) update.run(beat.ts, beat.id);
  };
  // Inside a caller's transaction (the receipts rider), no savepoint of its own.
  if (insideWrite(store)) run();
  else await store.write(run);
}
