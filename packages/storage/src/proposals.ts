/**
 * @module proposals
 * Queries for proposals (their reinforcements: proposal-reinforcements.ts). Rows are
 * never deleted; a proposal moves pending -> promoted once, by a guarded update.
 * Callers run the writes inside `store.write`.
 */
import { desc, eq } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import { proposals } from './schema';
import { pendingOne } from './where/_common';
import { proposalsMatching } from './where/proposals';

export type Proposal = typeof proposals.$inferSelect;

export interface NewProposal {
  readonly repoRoot: string;
  readonly branch: string;
  readonly summary: string;
  readonly rationale: string;
  readonly touchesFiles: string[];
  readonly proposedBySession: string;
  readonly observationId: number;
}

export function insertProposal(store: Store, input: NewProposal, now: number): Proposal {
  return dbOf(store)
    .insert(proposals)
    .values({ ...input, status: 'pending', createdAt: now })
    .returning()
    .get();
}

export function getProposal(store: Store, id: number): Proposal | undefined {
  return dbOf(store).select().from(proposals).where(eq(proposals.id, id)).get();
}

export interface ProposalFilter {
  readonly repoRoot: string;
  readonly branch: string;
  readonly status: 'pending' | 'promoted';
  /** Only proposals promoted at or after this time. */
  readonly promotedSince?: number;
}

/** Proposals of one (repo_root, branch) in one status, newest first. */
export function listProposals(store: Store, filter: ProposalFilter): Proposal[] {
  return dbOf(store)
    .select()
    .from(proposals)
    .where(proposalsMatching(proposals, filter))
    .orderBy(desc(proposals.id))
    .all();
}

/** pending -> promoted with its task; false when another call promoted it first. */
export function promoteProposal(store: Store, id: number, taskId: number, now: number): boolean {
  const result = dbOf(store)
    .update(proposals)
    .set({ status: 'promoted', taskId, promotedAt: now })
    .where(pendingOne(proposals, id))
    .run();
  return result.changes > 0;
}
