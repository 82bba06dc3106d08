/**
 * @module pg/queries/write-proposals
 * Seed-000 file write proposals (`src/write-proposals.ts`) on PostgreSQL. A decision is
 * a guarded UPDATE on `status = 'pending'` (READ COMMITTED re-checks it after a wait),
 * so of two arbiters racing on one proposal exactly one decides it; the partial unique
 * index keeps at most one pending proposal per (repo_root, path).
 */
import { asc, count, eq } from 'drizzle-orm';
import { eqIf, pendingOne } from '../../where/_common';
import { decisionSet, writeProposalWhere } from '../../where/proposals';
import type { NewWriteProposal, ProposalDecision, ProposalStatus, WriteProposal } from '../../write-proposals';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed } from './_common';

const { writeProposals } = pgTables;
const row = (r: unknown): WriteProposal => r as WriteProposal;

export async function insertWriteProposal(store: PgStore, p: NewWriteProposal, now: number): Promise<WriteProposal> {
  const [made] = await pgDb(store)
    .insert(writeProposals)
    .values({ ...p, status: 'pending', createdAt: now })
    .returning();
  return row(made);
}

/** The pending proposal for a path of a workspace, if any. */
export async function pendingProposalFor(
  store: PgStore,
  repoRoot: string,
  path: string,
): Promise<WriteProposal | undefined> {
  const [found] = await pgDb(store)
    .select()
    .from(writeProposals)
    .where(writeProposalWhere.pendingFor(writeProposals, repoRoot, path))
    .limit(1);
  return found === undefined ? undefined : row(found);
}

/** Pending proposals of a workspace, oldest first. */
export async function listPendingProposals(store: PgStore, repoRoot: string, limit: number): Promise<WriteProposal[]> {
  const rows = await pgDb(store)
    .select()
    .from(writeProposals)
    .where(writeProposalWhere.pendingOf(writeProposals, repoRoot))
    .orderBy(asc(writeProposals.id))
    .limit(limit);
  return rows.map(row);
}

export async function getWriteProposal(store: PgStore, id: number): Promise<WriteProposal | undefined> {
  const [found] = await pgDb(store).select().from(writeProposals).where(eq(writeProposals.id, id)).limit(1);
  return found === undefined ? undefined : row(found);
}

/** Moves a pending proposal to its decided status; false when it was no longer pending. */
export async function decideWriteProposal(
  store: PgStore,
  id: number,
  d: ProposalDecision,
  now: number,
): Promise<boolean> {
  const result = await pgDb(store)
    .update(writeProposals)
    .set(decisionSet(d, now))
    .where(pendingOne(writeProposals, id));
  return changed(result) === 1;
}

/** Proposals by status, for one workspace or all. */
export async function countWriteProposals(store: PgStore, status?: ProposalStatus): Promise<number> {
  const [found] = await pgDb(store)
    .select({ n: count() })
    .from(writeProposals)
    .where(eqIf(writeProposals.status, status));
  return Number(found?.n ?? 0);
}
