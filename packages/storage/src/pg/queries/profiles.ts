/**
 * @module pg/queries/profiles
 * The agent-profile queries of `src/profiles.ts` on PostgreSQL. `upsertProfile` never
 * reads then writes unlocked: it ensures the row (INSERT ... ON CONFLICT DO NOTHING),
 * locks it (FOR UPDATE), merges the weights and writes them, in one savepoint.
 */
import { eq, inArray } from 'drizzle-orm';
import type { AgentProfile } from '../../profiles';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { fromJson, toJson } from './_common';

const { agentProfiles } = pgTables;
const parsed = (row: unknown): AgentProfile => {
  const r = row as AgentProfile;
  return { ...r, capabilities: fromJson(r.capabilities) };
};

export async function getProfile(store: PgStore, agent: string): Promise<AgentProfile | undefined> {
  const rows = await pgDb(store).select().from(agentProfiles).where(eq(agentProfiles.agent, agent)).limit(1);
  return rows[0] && parsed(rows[0]);
}

export async function getProfiles(store: PgStore, agents: readonly string[]): Promise<AgentProfile[]> {
  if (agents.length === 0) return [];
  return (
    await pgDb(store)
      .select()
      .from(agentProfiles)
      .where(inArray(agentProfiles.agent, [...agents]))
  ).map(parsed);
}

export async function listProfiles(store: PgStore): Promise<AgentProfile[]> {
  return (await pgDb(store).select().from(agentProfiles).orderBy(agentProfiles.agent)).map(parsed);
}

export async function upsertProfile(
  store: PgStore,
  agent: string,
  weights: Readonly<Record<string, number>>,
  now: number,
): Promise<AgentProfile> {
  return store.write(async () => {
    const db = pgDb(store);
    await db
      .insert(agentProfiles)
      .values({ agent, capabilities: '{}', createdAt: now, updatedAt: now })
      .onConflictDoNothing();
    const [locked] = await db.select().from(agentProfiles).where(eq(agentProfiles.agent, agent)).for('update');
    const capabilities = { ...parsed(locked).capabilities, ...weights };
    const rows = await db
      .update(agentProfiles)
      .set({ capabilities: toJson(capabilities), updatedAt: now })
      .where(eq(agentProfiles.agent, agent))
      .returning();
    return parsed(rows[0]);
  });
}
