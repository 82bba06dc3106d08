/**
 * @module sessions
 * Queries for agent sessions, registered once (liveness: session-heartbeats.ts); the
 * ide/agent/cwd are filled in when first known and never blanked later.
 */
import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import { dbOf, prepared, type Store } from './_store';
import { sessions } from './schema';
import { mergedSession, newSessionRow, type SessionInput } from './where/sessions';

export type Session = typeof sessions.$inferSelect;

export type { SessionInput };

/** Inserts the session or refreshes it: heartbeat now, known fields kept unless given. */
export function upsertSession(store: Store, input: SessionInput, now: number): Session {
  const db = dbOf(store);
  const existing = db.select().from(sessions).where(eq(sessions.id, input.id)).get();
  if (!existing) {
    return db.insert(sessions).values(newSessionRow(input, now)).returning().get();
  }
  return db
    .update(sessions)
    .set(mergedSession(existing, input, now))
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
