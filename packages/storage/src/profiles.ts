/**
 * @module profiles
 * Queries for agent capability profiles: one row per agent name, weights stored as a
 * JSON object. Upserting merges the given weights into the stored ones inside the
 * caller's write, so two writers never lose each other's dimensions.
 */
import { eq, inArray } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import { agentProfiles } from './schema';

export type AgentProfile = typeof agentProfiles.$inferSelect;

export function getProfile(store: Store, agent: string): AgentProfile | undefined {
  return dbOf(store).select().from(agentProfiles).where(eq(agentProfiles.agent, agent)).get();
}

/** The stored profiles of these agents (missing ones are simply absent). */
export function getProfiles(store: Store, agents: readonly string[]): AgentProfile[] {
  if (agents.length === 0) return [];
  return dbOf(store)
    .select()
    .from(agentProfiles)
    .where(inArray(agentProfiles.agent, [...agents]))
    .all();
}

/** Every stored profile, by agent name. */
export function listProfiles(store: Store): AgentProfile[] {
  return dbOf(store).select().from(agentProfiles).orderBy(agentProfiles.agent).all();
}

/**
 * Merges `weights` into the agent's stored weights (creating the row when absent) and
 * returns the saved row. Call inside `store.write`.
 */
export function upsertProfile(
  store: Store,
  agent: string,
  weights: Readonly<Record<string, number>>,
  now: number,
): AgentProfile {
  const db = dbOf(store);
  const existing = getProfile(store, agent);
  const capabilities = { ...existing?.capabilities, ...weights };
  if (!existing) {
    return db.insert(agentProfiles).values({ agent, capabilities, createdAt: now, updatedAt: now }).returning().get();
  }
  return db
    .update(agentProfiles)
    .set({ capabilities, updatedAt: now })
    .where(eq(agentProfiles.agent, agent))
    .returning()
    .get();
}
