/**
 * @module proposal-reinforcements
 * Queries for the reinforcements of proposals: one row per agent's support, appended,
 * never updated. Strength is not stored: the coordination layer computes it from these
 * rows and its clock. Callers run the writes inside `store.write`.
 */
import { asc, inArray } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import { proposalReinforcements } from './schema';

export type Reinforcement = typeof proposalReinforcements.$inferSelect;

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
