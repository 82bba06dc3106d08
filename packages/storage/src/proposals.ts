/**
 * @module proposals
 * Queries for proposals and their reinforcements. Rows are never deleted; a proposal
 * moves pending -> promoted once, by a guarded update. Strength is not stored: the
 * coordination layer computes it from the reinforcement rows and its clock.
 * Callers run the writes inside `store.write`.
 */
import { and, asc, desc, eq, gte, inArray } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import { proposalReinforcements, proposals } from './schema';

export type Proposal = typeof proposals.$inferSelect;
export type Reinforcement = typeof proposalReinforcements.$inferSelect;

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
    .where(
      and(
        eq(proposals.repoRoot, filter.repoRoot),
        eq(proposals.branch, filter.branch),
        eq(proposals.status, filter.status),
        filter.promotedSince === undefined ? undefined : gte(proposals.promotedAt, filter.promotedSince),
      ),
    )
    .orderBy(desc(proposals.id))
    .all();
}

/** pending -> promoted with its task; false when another call promoted it first. */
export function promoteProposal(store: Store, id: number, taskId: number, now: number): boolean {
  const result = dbOf(store)
    .update(proposals)
    .set({ status: 'promoted', taskId, promotedAt: now })
    .where(and(eq(proposals.id, id), eq(proposals.status, 'pending')))
    .run();
  return result.changes > 0;
}

export type NewReinforcement = Omit<Reinforcement, 'id'>;

export function insertReinforcement(store: Store, input: NewReinforcement): Reinforcement {
  return dbOf(store).insert(proposalReinforcements).values(input).returning().get();
}

/** The reinforcement rows of some proposals, oldest first. */
export function listReinforcements(store: Store, proposalIds: readonly number[]): Reinforcement[] {
  if (proposalIds.length === 0) return [];
  return dbOf(store)
    .select()
    .from(proposalReinforcements)
    .where(inArray(proposalReinforcements.proposalId, [...proposalIds]))
    .orderBy(asc(proposalReinforcements.ts), asc(proposalReinforcements.id))
    .all();
}
