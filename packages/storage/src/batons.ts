/**
 * @module batons
 * Queries for batons: handoffs and relays, keyed by the observation that announced
 * them. Status moves pending -> accepted | cancelled | expired exactly once: every
 * change is an UPDATE guarded by `status = 'pending'`, and its `changes` count tells
 * the caller whether it won, so of many racing processes exactly one does.
 */
import { count, desc, eq, sql } from 'drizzle-orm';
import { dbOf, prepared, type Store } from './_store';
import { batons, fileClaims, type JsonObject, taskParticipants } from './schema';
import { eqIf, pendingOne } from './where/_common';
import { batonWhere, resolutionSet } from './where/batons';

export type Baton = typeof batons.$inferSelect;
export type BatonKind = 'handoff' | 'relay';
export type BatonStatus = 'pending' | 'accepted' | 'cancelled' | 'expired';

export interface NewBaton {
  /** The id of the observation announcing it. */
  readonly id: number;
  readonly taskId: number;
  readonly kind: BatonKind;
  readonly fromSessionId: string;
  readonly fromAgent: string;
  readonly toAgent: string;
  readonly toSessionId?: string | null;
  readonly summary: string;
  readonly payload: JsonObject;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export function insertBaton(store: Store, baton: NewBaton): Baton {
  return dbOf(store)
    .insert(batons)
    .values({ ...baton, toSessionId: baton.toSessionId ?? null, status: 'pending' })
    .returning()
    .get();
}

export function getBaton(store: Store, id: number): Baton | undefined {
  return prepared(store, 'getBaton', (db) =>
    db
      .select()
      .from(batons)
      .where(eq(batons.id, sql.placeholder('id')))
      .prepare(),
  ).get({ id });
}

export interface Resolution {
  readonly status: Exclude<BatonStatus, 'pending'>;
  readonly now: number;
  readonly bySessionId: string;
  readonly reason?: string | null;
}

/** Resolves a pending baton. Returns false when it was no longer pending (another caller won). */
export function resolveBaton(store: Store, id: number, resolution: Resolution): boolean {
  return dbOf(store).update(batons).set(resolutionSet(resolution)).where(pendingOne(batons, id)).run().changes > 0;
}

/** Re-addresses a pending baton (for example to any agent). Returns false when it was not pending. */
export function retargetBaton(store: Store, id: number, toAgent: string, toSessionId: string | null): boolean {
  return dbOf(store).update(batons).set({ toAgent, toSessionId }).where(pendingOne(batons, id)).run().changes > 0;
}

/** A task's pending batons whose time is up at `now`, oldest first. */
export function overduePendingBatons(store: Store, taskId: number, now: number): Baton[] {
  return dbOf(store)
    .select()
    .from(batons)
    .where(batonWhere.overdue(batons, taskId, now))
    .orderBy(batons.id)
    .all();
}

/** The newest pending baton holding a handoff_pending claim on this file of the task. */
export function pendingBatonOfFile(store: Store, taskId: number, filePath: string): Baton | undefined {
  return dbOf(store)
    .select({ baton: batons })
    .from(fileClaims)
    .innerJoin(batons, eq(batons.id, fileClaims.batonId))
    .where(batonWhere.ofFile(fileClaims, batons, taskId, filePath))
    .orderBy(desc(batons.id))
    .limit(1)
    .get()?.baton;
}

/** A pending baton on a thread the session takes part in, with the agent it joined as. */
export interface OpenBaton extends Baton {
  readonly participantAgent: string;
}

/**
 * Pending, unexpired batons on the active threads a session takes part in, not sent by
 * it, and either addressed to it or to no particular session. Newest first. Whether
 * `toAgent` fits the session's agent is the caller's rule to apply.
 */
export function openBatonsForSession(store: Store, sessionId: string, now: number, limit: number): OpenBaton[] {
  return dbOf(store)
    .select({ baton: batons, agent: taskParticipants.agent })
    .from(batons)
    .innerJoin(taskParticipants, batonWhere.participantJoin(taskParticipants, batons, sessionId))
    .where(batonWhere.openFor(taskParticipants, batons, sessionId, now))
    .orderBy(desc(batons.id))
    .limit(limit)
    .all()
    .map((r) => ({ ...r.baton, participantAgent: r.agent }));
}

export function countBatons(store: Store, status?: BatonStatus): number {
  return dbOf(store).select({ n: count() }).from(batons).where(eqIf(batons.status, status)).get()?.n ?? 0;
}
