/**
 * @module pg/queries/proposals
 * The proposals of `src/proposals.ts` on PostgreSQL. `touches_files` is JSON text here
 * (as SQLite stores it), encoded on write and decoded on read. A proposal moves pending
 * -> promoted once, by a guarded update (READ COMMITTED re-checks the status after a wait).
 */
import { desc, eq } from 'drizzle-orm';
import type { NewProposal, Proposal, ProposalFilter } from '../../proposals';
import { pendingOne } from '../../where/_common';
import { proposalsMatching } from '../../where/proposals';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { changed, fromJson, toJson } from './_common';

const { proposals } = pgTables;

const parsed = (row: unknown): Proposal => {
  const r = row as Proposal;
  return { ...r, touchesFiles: fromJson(r.touchesFiles) };
};

export async function insertProposal(store: PgStore, input: NewProposal, now: number): Promise<Proposal> {
  const [row] = await pgDb(store)
    .insert(proposals)
    .values({ ...input, touchesFiles: toJson(input.touchesFiles), status: 'pending', createdAt: now })
    .returning();
  return parsed(row);
}

export async function getProposal(store: PgStore, id: number): Promise<Proposal | undefined> {
  const [row] = await pgDb(store).select().from(proposals).where(eq(proposals.id, id)).limit(1);
  return row === undefined ? undefined : parsed(row);
}

/** Proposals of one (repo_root, branch) in one status, newest first. */
export async function listProposals(store: PgStore, filter: ProposalFilter): Promise<Proposal[]> {
  const rows = await pgDb(store)
    .select()
    .from(proposals)
    .where(proposalsMatching(proposals, filter))
    .orderBy(desc(proposals.id));
  return rows.map(parsed);
}

/** pending -> promoted with its task; false when another call promoted it first. */
export async function promoteProposal(store: PgStore, id: number, taskId: number, now: number): Promise<boolean> {
  const result = await pgDb(store)
    .update(proposals)
    .set({ status: 'promoted', taskId, promotedAt: now })
    .where(pendingOne(proposals, id));
  return changed(result) > 0;
}
