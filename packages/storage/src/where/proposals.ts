/**
 * @module where/proposals
 * The WHERE conditions of the proposal and write-proposal queries, shared by
 * `src/proposals.ts` / `src/write-proposals.ts` (SQLite) and their PostgreSQL twins.
 * Promotion and decisions are guarded by `status = 'pending'` (`pendingOne`).
 */
import { and, eq, gte } from 'drizzle-orm';
import type { proposals, writeProposals } from '../schema';
import type { ColsOf } from './_columns';

/** The `proposals` columns a list reads. */
export type ProposalCols = ColsOf<typeof proposals, 'repoRoot' | 'branch' | 'status' | 'promotedAt'>;

/** The `writeProposals` columns these builders read. */
export type WriteProposalCols = ColsOf<typeof writeProposals, 'repoRoot' | 'path' | 'status'>;

/** Proposals of one (repo_root, branch) in one status, optionally promoted since a time. */
export const proposalsMatching = (
  p: ProposalCols,
  f: { readonly repoRoot: string; readonly branch: string; readonly status: string; readonly promotedSince?: number },
) =>
  and(
    eq(p.repoRoot, f.repoRoot),
    eq(p.branch, f.branch),
    eq(p.status, f.status),
    f.promotedSince === undefined ? undefined : gte(p.promotedAt, f.promotedSince),
  );

export const writeProposalWhere = {
  /** The pending proposal for a path of a workspace. */
  pendingFor: (w: WriteProposalCols, repoRoot: string, path: string) =>
    and(eq(w.repoRoot, repoRoot), eq(w.path, path), eq(w.status, 'pending')),
  /** A workspace's pending proposals. */
  pendingOf: (w: WriteProposalCols, repoRoot: string) => and(eq(w.repoRoot, repoRoot), eq(w.status, 'pending')),
};

/** The `set` of an arbiter's decision made `now`. */
export const decisionSet = (
  d: {
    readonly status: string;
    readonly decidedBy: string;
    readonly notes?: string | null;
    readonly errorCode?: string | null;
  },
  now: number,
) => ({
  status: d.status,
  decidedBy: d.decidedBy,
  decidedAt: now,
  notes: d.notes ?? null,
  errorCode: d.errorCode ?? null,
});
