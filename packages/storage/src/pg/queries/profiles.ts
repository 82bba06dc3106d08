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

const { agentProfiles } = pgTables;

export async function getProfile(store: PgStore, agent: string): Promise<AgentProfile | undefined> {
  const rows = await pgDb(store).select().from(agentProfiles).where(eq(agentProfiles.agent, agent)).limit(1);
  return rows[0] as AgentProfile | undefined;
}

export async function getProfiles(store: PgStore, agents: readonly string[]): Promise<AgentProfile[]> {
  if (agents.length === 0) return [];
  return (await pgDb(store)
    .select()
    .from(agentProfiles)
    .where(inArray(agentProfiles.agent, [...agents]))) as AgentProfile[];
}

export async function listProfiles(store: PgStore): Promise<AgentProfile[]> {
  return (await pgDb(store).select().from(agentProfiles).orderBy(agentProfiles.agent)) as AgentProfile[];
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
      .values({ agent, capabilities: {}, createdAt: now, updatedAt: now })
      .onConflictDoNothing();
    const [locked] = await db.select().from(agentProfiles).where(eq(agentProfiles.agent, agent)).for('update');
    const capabilities = { ...(locked as AgentProfile).capabilities, ...weights };
    const rows = await db
      .update(agentProfiles)
      .set({ capabilities, updatedAt: now })
      .where(eq(agentProfiles.agent, agent))
      .returning();
    return rows[0] as AgentProfile;
  });
}
