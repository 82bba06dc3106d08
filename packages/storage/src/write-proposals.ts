/**
 * @module write-proposals
 * Seed-000 file write proposals and the arbiter's decisions on them. A decision is a
 * guarded UPDATE on `status = 'pending'`, so of two arbiters racing on one proposal
 * exactly one decides it. At most one pending proposal per (repo_root, path).
 */
import { asc, count, eq } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import { writeProposals } from './schema';
import { eqIf, pendingOne } from './where/_common';
import { decisionSet, writeProposalWhere } from './where/proposals';

export type WriteProposal = typeof writeProposals.$inferSelect;
export type ProposalStatus = 'pending' | 'approved' | 'applied' | 'failed' | 'rejected' | 'superseded';

export interface NewWriteProposal {
  readonly repoRoot: string;
  readonly path: string;
  readonly content: string;
  readonly createDirs: boolean;
  readonly agent: string;
  readonly observationId: number;
}

export function insertWriteProposal(store: Store, p: NewWriteProposal, now: number): WriteProposal {
  return dbOf(store)
    .insert(writeProposals)
    .values({ ...p, status: 'pending', createdAt: now })
    .returning()
    .get();
}

/** The pending proposal for a path of a workspace, if any. */
export function pendingProposalFor(store: Store, repoRoot: string, path: string): WriteProposal | undefined {
  return dbOf(store)
    .select()
    .from(writeProposals)
    .where(writeProposalWhere.pendingFor(writeProposals, repoRoot, path))
    .get();
}

/** Pending proposals of a workspace, oldest first. */
export function listPendingProposals(store: Store, repoRoot: string, limit: number): WriteProposal[] {
  return dbOf(store)
    .select()
    .from(writeProposals)
    .where(writeProposalWhere.pendingOf(writeProposals, repoRoot))
    .orderBy(asc(writeProposals.id))
    .limit(limit)
    .all();
}

export function getWriteProposal(store: Store, id: number): WriteProposal | undefined {
  return dbOf(store).select().from(writeProposals).where(eq(writeProposals.id, id)).get();
}

export interface ProposalDecision {
  readonly status: Exclude<ProposalStatus, 'pending'>;
  readonly decidedBy: string;
  readonly notes?: string | null;
  readonly errorCode?: string | null;
}

/** Moves a pending proposal to its decided status; false when it was no longer pending. */
export function decideWriteProposal(store: Store, id: number, d: ProposalDecision, now: number): boolean {
  const result = dbOf(store)
    .update(writeProposals)
    .set(decisionSet(d, now))
    .where(pendingOne(writeProposals, id))
    .run();
  return result.changes === 1;
}

/** Proposals by status, for one workspace or all. */
export function countWriteProposals(store: Store, status?: ProposalStatus): number {
  return (
    dbOf(store).select({ n: count() }).from(writeProposals).where(eqIf(writeProposals.status, status)).get()?.n ?? 0
  );
}
