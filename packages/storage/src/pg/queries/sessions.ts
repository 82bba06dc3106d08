/**
 * @module pg/queries/sessions
 * The session queries of `src/sessions.ts` on PostgreSQL. `upsertSession` inserts
 * (ON CONFLICT DO NOTHING) or else locks the row (FOR UPDATE) and merges, in one
 * savepoint: never an unlocked read followed by a write.
 */
import { count, desc, eq, inArray } from 'drizzle-orm';
import type { Session, SessionInput } from '../../sessions';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const { sessions } = pgTables;

export async function upsertSession(store: PgStore, input: SessionInput, now: number): Promise<Session> {
  return store.write(async () => {
    const db = pgDb(store);
    const inserted = await db
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
      .onConflictDoNothing()
      .returning();
    if (inserted[0]) return inserted[0] as Session;
    const [row] = await db.select().from(sessions).where(eq(sessions.id, input.id)).for('update');
    const existing = row as Session;
    const rows = await db
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
      .returning();
    return rows[0] as Session;
  });
}

export async function getSession(store: PgStore, id: string): Promise<Session | undefined> {
  const rows = await pgDb(store).select().from(sessions).where(eq(sessions.id, id)).limit(1);
  return rows[0] as Session | undefined;
}

export async function getSessions(store: PgStore, ids: readonly string[]): Promise<Session[]> {
  if (ids.length === 0) return [];
  return (await pgDb(store)
    .select()
    .from(sessions)
    .where(inArray(sessions.id, [...ids]))) as Session[];
}

export async function listSessions(store: PgStore, limit: number): Promise<Session[]> {
  return (await pgDb(store)
    .select()
    .from(sessions)
    .orderBy(desc(sessions.startedAt), desc(sessions.id))
    .limit(limit)) as Session[];
}

export async function countSessions(store: PgStore): Promise<number> {
  const rows = await pgDb(store).select({ n: count() }).from(sessions);
  return Number(rows[0]?.n ?? 0);
}
