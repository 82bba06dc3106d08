/**
 * @module pg/queries/proposal-reinforcements
 * The reinforcement rows of `src/proposal-reinforcements.ts` on PostgreSQL: appended,
 * never updated; listed oldest first (ts, then id).
 */
import { asc, inArray } from 'drizzle-orm';
import type { NewReinforcement, Reinforcement } from '../../proposal-reinforcements';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const { proposalReinforcements } = pgTables;

export async function insertReinforcement(store: PgStore, input: NewReinforcement): Promise<Reinforcement> {
  const [row] = await pgDb(store).insert(proposalReinforcements).values(input).returning();
  return row as Reinforcement;
}

/** The reinforcement rows of some proposals, oldest first. */
export async function listReinforcements(store: PgStore, proposalIds: readonly number[]): Promise<Reinforcement[]> {
  if (proposalIds.length === 0) return [];
  const rows = await pgDb(store)
    .select()
    .from(proposalReinforcements)
    .where(inArray(proposalReinforcements.proposalId, [...proposalIds]))
    .orderBy(asc(proposalReinforcements.ts), asc(proposalReinforcements.id));
  return rows as Reinforcement[];
}
