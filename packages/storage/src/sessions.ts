/**
 * @module sessions
 * Queries for agent sessions. A session is registered once and heartbeated on every
 * call; its ide/agent/cwd are filled in when first known and never blanked later.
 */
import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import { dbOf, prepared, type Store, statement } from './_store';
import { type JsonObject, sessions } from './schema';

export type Session = typeof sessions.$inferSelect;

export interface SessionInput {
  readonly id: string;
  readonly ide?: string | null;
  readonly agent?: string | null;
  readonly cwd?: string | null;
  readonly metadata?: JsonObject | null;
}

/** Inserts the session or refreshes it: heartbeat now, known fields kept unless given. */
export function upsertSession(store: Store, input: SessionInput, now: number): Session {
  const db = dbOf(store);
  const existing = db.select().from(sessions).where(eq(sessions.id, input.id)).get();
  if (!existing) {
    return db
      .insert(sessions)
      .values({
        id: input.id,
        ide: input.ide ?? 'unknown',
        agent: input.agent ?? null,
        cwd: input.cwd ?? null,
        startedAt: now,
        lastHeartbeatAt: now,
        metadata: input.metadata ?? null,
      })
      .returning()
      .get();
  }
  return db
    .update(sessions)
    .set({
      ide: input.ide && input.ide !== 'unknown' ? input.ide : existing.ide,
      agent: input.agent ?? existing.agent,
      cwd: input.cwd ?? existing.cwd,
      lastHeartbeatAt: Math.max(now, existing.lastHeartbeatAt),
      endedAt: null,
      metadata: input.metadata ? { ...existing.metadata, ...input.metadata } : existing.metadata,
    })
    .where(eq(sessions.id, input.id))
    .returning()
    .get();
}

export function getSession(store: Store, id: string): Session | undefined {
  return prepared(store, 'getSession', (db) =>
    db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sql.placeholder('id')))
      .prepare(),
  ).get({ id });
}

export function getSessions(store: Store, ids: readonly string[]): Session[] {
  if (ids.length === 0) return [];
  return dbOf(store)
    .select()
    .from(sessions)
    .where(inArray(sessions.id, [...ids]))
    .all();
}

/** Refreshes the heartbeat of a known session; returns false when it does not exist. */
export function touchSession(store: Store, id: string, now: number): boolean {
  const result = prepared(store, 'touchSession', (db) =>
    db
      .update(sessions)
      .set({ lastHeartbeatAt: sql`${sql.placeholder('now')}` })
      .where(eq(sessions.id, sql.placeholder('id')))
      .prepare(),
  ).run({ id, now });
  return result.changes > 0;
}

export function endSession(store: Store, id: string, now: number): boolean {
  const result = dbOf(store).update(sessions).set({ endedAt: now }).where(eq(sessions.id, id)).run();
  return result.changes > 0;
}

/** Most recently started first. */
export function listSessions(store: Store, limit: number): Session[] {
  return dbOf(store).select().from(sessions).orderBy(desc(sessions.startedAt), desc(sessions.id)).limit(limit).all();
}

export function countSessions(store: Store): number {
  return dbOf(store).select({ n: count() }).from(sessions).get()?.n ?? 0;
}

const HEARTBEAT_SQL = 'UPDATE sessions SET last_heartbeat_at = max(last_heartbeat_at, ?) WHERE id = ?';

/** Moves heartbeats forward (never back) for sessions that showed a sign of life at `ts`; unknown ids are skipped. */
export function heartbeatSessions(
  store: Store,
  beats: ReadonlyArray<{ readonly id: string; readonly ts: number }>,
): void {
  if (beats.length === 0) return;
  const update = statement(store, HEARTBEAT_SQL);
  store.write(() => {
    for (const beat of beats) update.run(beat.ts, beat.id);
  });
}
