/**
 * @module pg/queries/batons
 * The baton (handoff/relay) queries of `src/batons.ts` on PostgreSQL. Resolving and
 * retargeting are guarded UPDATEs (`status = 'pending'`): one caller wins. The JSON
 * payload is text, as on SQLite (`toJson`/`fromJson`).
 */
import { count, desc, eq } from 'drizzle-orm';
import type { Baton, BatonStatus, NewBaton, OpenBaton, Resolution } from '../../batons';
import { eqIf, pendingOne } from '../../where/_common';
import { batonWhere, resolutionSet } from '../../where/batons';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed, fromJson, toJson } from './_common';

const { batons, fileClaims, taskParticipants } = pgTables;
const parsed = (row: unknown): Baton => ({ ...(row as Baton), payload: fromJson((row as Baton).payload) });

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
  const where = pendingOne(batons, id);
  return changed(await pgDb(store).update(batons).set(resolutionSet(resolution)).where(where)) > 0;
}

export async function retargetBaton(
  store: PgStore,
  id: number,
  toAgent: string,
  toSessionId: string | null,
): Promise<boolean> {
  return changed(await pgDb(store).update(batons).set({ toAgent, toSessionId }).where(pendingOne(batons, id))) > 0;
}

export async function overduePendingBatons(store: PgStore, taskId: number, now: number): Promise<Baton[]> {
  const where = batonWhere.overdue(batons, taskId, now);
  return (await pgDb(store).select().from(batons).where(where).orderBy(batons.id)).map(parsed);
}

export async function pendingBatonOfFile(store: PgStore, taskId: number, filePath: string): Promise<Baton | undefined> {
  const rows = await pgDb(store)
    .select({ baton: batons })
    .from(fileClaims)
    .innerJoin(batons, eq(batons.id, fileClaims.batonId))
    .where(batonWhere.ofFile(fileClaims, batons, taskId, filePath))
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
    .innerJoin(taskParticipants, batonWhere.participantJoin(taskParticipants, batons, sessionId))
    .where(batonWhere.openFor(taskParticipants, batons, sessionId, now))
    .orderBy(desc(batons.id))
    .limit(limit);
  return rows.map((r) => ({ ...parsed(r.baton), participantAgent: r.agent as string }));
}

export async function countBatons(store: PgStore, status?: BatonStatus): Promise<number> {
  const where = eqIf(batons.status, status);
  return Number((await pgDb(store).select({ n: count() }).from(batons).where(where))[0]?.n ?? 0);
}
