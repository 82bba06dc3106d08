/**
 * @module schema/proposals
 * Task proposals and their reinforcements.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { sessions, tasks } from './threads';

/**
 * Proposed improvements on (repo_root, branch), waiting for reinforcement. Strength is
 * computed at read time from `proposal_reinforcements` and the injected clock, never
 * stored. Promotion is a guarded update (status 'pending' -> 'promoted') that also sets
 * task_id, so of many racing reinforcements exactly one creates the task.
 */
export const proposals = sqliteTable(
  'proposals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    branch: text('branch').notNull(),
    summary: text('summary').notNull(),
    rationale: text('rationale').notNull(),
    touchesFiles: text('touches_files', { mode: 'json' }).$type<string[]>().notNull(),
    /** pending | promoted */
    status: text('status').notNull(),
    proposedBySession: text('proposed_by_session')
      .notNull()
      .references(() => sessions.id),
    observationId: integer('observation_id').notNull(),
    createdAt: integer('created_at').notNull(),
    promotedAt: integer('promoted_at'),
    taskId: integer('task_id').references(() => tasks.id),
  },
  (t) => [index('proposals_scope_idx').on(t.repoRoot, t.branch, t.status)],
);

/**
 * Evidence for a proposal, one row per reinforcement (the proposer's own row is kind
 * 'proposed'). `weight` is the base weight stored when the row was written: later
 * changes to the weight table never rewrite history.
 */
export const proposalReinforcements = sqliteTable(
  'proposal_reinforcements',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    /** The session's agent family (claude, codex, ...) or 'unknown'. */
    agentType: text('agent_type').notNull(),
    /** proposed | explicit | rediscovered | adjacent */
    kind: text('kind').notNull(),
    weight: real('weight').notNull(),
    ts: integer('ts').notNull(),
    observationId: integer('observation_id').notNull(),
  },
  (t) => [index('proposal_reinforcements_proposal_idx').on(t.proposalId, t.ts)],
);
