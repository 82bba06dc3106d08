/**
 * @module pg/queries/sessions
 * The session queries of `src/sessions.ts` on PostgreSQL. `upsertSession` inserts
 * (ON CONFLICT DO NOTHING) or else locks the row (FOR UPDATE) and merges, in one
 * savepoint: never an unlocked read followed by a write.
 */
import { count, desc, eq, inArray } from 'drizzle-orm';
import type { Session, SessionInput } from '../../sessions';
import { mergedSession, newSessionRow } from '../../where/sessions';
import { pgTables } from '../schema';
import { inCallersWrite, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { fromJson, toJson } from './_common';

const { sessions } = pgTables;
const parsed = (row: unknown): Session => {
  const r = row as Session;
  return { ...r, metadata: fromJson(r.metadata) };
};

export async function upsertSession(store: PgStore, input: SessionInput, now: number): Promise<Session> {
  // In the caller's write as it is (no savepoint: nothing here is caught and gone on
  // from), else in a write of its own. A known session, the common case, is two
  // statements: its row, locked, then the update; a new one is inserted (a racing
  // insert of the same id makes this one lock and update the row that won).
  return inCallersWrite(store, async () => {
    const db = pgDb(store);
    const lockRow = async () => (await db.select().from(sessions).where(eq(sessions.id, input.id)).for('update'))[0];
    let row = await lockRow();
    if (!row) {
      const inserted = await db
        .insert(sessions)
        .values({ ...newSessionRow(input, now), metadata: toJson(input.metadata) })
        .onConflictDoNothing()
        .returning();
      if (inserted[0]) return parsed(inserted[0]);
      row = await lockRow();
    }
    const set = mergedSession(parsed(row), input, now);
    const rows = await db
      .update(sessions)
      .set({ ...set, metadata: toJson(set.metadata) })
      .where(eq(sessions.id, input.id))
      .returning();
    return parsed(rows[0]);
  });
}

export async function getSession(store: PgStore, id: string): Promise<Session | undefined> {
  const rows = await pgDb(store).select().from(sessions).where(eq(sessions.id, id)).limit(1);
  return rows[0] && parsed(rows[0]);
}

export async function getSessions(store: PgStore, ids: readonly string[]): Promise<Session[]> {
  if (ids.length === 0) return [];
  return (
    await pgDb(store)
      .select()
      .from(sessions)
      .where(inArray(sessions.id, [...ids]))
  ).map(parsed);
}

export async function listSessions(store: PgStore, limit: number): Promise<Session[]> {
  return (
    await pgDb(store).select().from(sessions).orderBy(desc(sessions.startedAt), desc(sessions.id)).limit(limit)
  ).map(parsed);
}

export async function countSessions(store: PgStore): Promise<number> {
  const rows = await pgDb(store).select({ n: count() }).from(sessions);
  return Number(rows[0]?.n ?? 0);
}
