/**
 * @module schema/profiles
 * Agent capability profiles, which ready work ranks by.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Capability profiles: how well an agent type does each kind of work, as weights in
 * [0, 1] keyed by dimension (ui_work, api_work, ...). One row per agent name; a
 * dimension missing from `capabilities` reads as the default weight.
 */
export const agentProfiles = sqliteTable('agent_profiles', {
  agent: text('agent').primaryKey(),
  capabilities: text('capabilities', { mode: 'json' }).$type<Record<string, number>>().notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
