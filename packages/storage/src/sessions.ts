/**
 * @module sessions
 * Queries for agent sessions, registered once (liveness: session-heartbeats.ts); the
 * ide/agent/cwd are filled in when first known and never blanked later.
 */
import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import { dbOf, prepared, type Store } from './_store';
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

/** Most recently started first. */
export function listSessions(store: Store, limit: number): Session[] {
  return dbOf(store).select().from(sessions).orderBy(desc(sessions.startedAt), desc(sessions.id)).limit(limit).all();
}

export function countSessions(store: Store): number {
  return dbOf(store).select({ n: count() }).from(sessions).get()?.n ?? 0;
}
