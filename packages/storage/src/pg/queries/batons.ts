/**
 * @module pg/queries/batons
 * The baton (handoff/relay) queries of `src/batons.ts` on PostgreSQL. Resolving and
 * retargeting are guarded UPDATEs (`status = 'pending'`): one caller wins. The JSON
 * payload is text, as on SQLite (`toJson`/`fromJson`).
 */
import { and, count, desc, eq, gt, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Baton, BatonStatus, NewBaton, OpenBaton, Resolution } from '../../batons';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed, fromJson, toJson } from './_common';

const { batons, fileClaims, taskParticipants } = pgTables;
const parsed = (row: unknown): Baton => ({ ...(row as Baton), payload: fromJson((row as Baton).payload) });
const pendingOne = (id: number) => and(eq(batons.id, id), eq(batons.status, 'pending'));

export async function insertBaton(store: PgStore, baton: NewBaton): Promise<Baton> {
  const rows = await pgDb(store)
    .insert(batons)
    .values({ ...baton, payload: toJson(baton.payload), toSessionId: baton.toSessionId ?? null, status: 'pending' })
    .returning();
  return parsed(rows[0]);
}

export async function getBaton(store: PgStore, id: number): Promise<Baton | undefined> {
  const rows = await pgDb(store).select().from(batons).where(eq(batons.id, id)).limit(1);
  return rows[0] && parsed(rows[0]);
}

export async function resolveBaton(store: PgStore, id: number, resolution: Resolution): Promise<boolean> {
  const set = {
    status: resolution.status,
    resolvedAt: resolution.now,
    resolvedBySessionId: resolution.bySessionId,
    resolutionReason: resolution.reason ?? null,
  };
  return changed(await pgDb(store).update(batons).set(set).where(pendingOne(id))) > 0;
}

export async function retargetBaton(
  store: PgStore,
  id: number,
  toAgent: string,
  toSessionId: string | null,
): Promise<boolean> {
  return changed(await pgDb(store).update(batons).set({ toAgent, toSessionId }).where(pendingOne(id))) > 0;
}

export async function overduePendingBatons(store: PgStore, taskId: number, now: number): Promise<Baton[]> {
  const where = and(eq(batons.taskId, taskId), eq(batons.status, 'pending'), lte(batons.expiresAt, now));
  return (await pgDb(store).select().from(batons).where(where).orderBy(batons.id)).map(parsed);
}

export async function pendingBatonOfFile(store: PgStore, taskId: number, filePath: string): Promise<Baton | undefined> {
  const rows = await pgDb(store)
    .select({ baton: batons })
    .from(fileClaims)
    .innerJoin(batons, eq(batons.id, fileClaims.batonId))
    .where(
      and(
        eq(fileClaims.taskId, taskId),
        eq(fileClaims.filePath, filePath),
        eq(fileClaims.state, 'handoff_pending'),
        eq(batons.status, 'pending'),
      ),
    )
    .orderBy(desc(batons.id))
    .limit(1);
  return rows[0] && parsed(rows[0].baton);
}

export async function openBatonsForSession(
  store: PgStore,
  sessionId: string,
  now: number,
  limit: number,
): Promise<OpenBaton[]> {
  const rows = await pgDb(store)
    .select({ baton: batons, agent: taskParticipants.agent })
    .from(batons)
    .innerJoin(
      taskParticipants,
      and(eq(taskParticipants.taskId, batons.taskId), eq(taskParticipants.sessionId, sessionId)),
    )
    .where(
      and(
        isNull(taskParticipants.leftAt),
        eq(batons.status, 'pending'),
        gt(batons.expiresAt, now),
        ne(batons.fromSessionId, sessionId),
        sql`(${batons.toSessionId} IS NULL OR ${batons.toSessionId} = ${sessionId})`,
      ),
    )
    .orderBy(desc(batons.id))
    .limit(limit);
  return rows.map((r) => ({ ...parsed(r.baton), participantAgent: r.agent as string }));
}

export async function countBatons(store: PgStore, status?: BatonStatus): Promise<number> {
  const where = status === undefined ? undefined : eq(batons.status, status);
  return Number((await pgDb(store).select({ n: count() }).from(batons).where(where))[0]?.n ?? 0);
}
