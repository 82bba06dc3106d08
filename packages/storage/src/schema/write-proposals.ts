/**
 * @module schema/write-proposals
 * Seed-000 write proposals: whole-file writes waiting for the arbiter.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Seed-000 write proposals: a whole-file write an agent asks for, waiting for the
 * arbiter. pending -> rejected | approved (approved, not written: writes not allowed)
 * | applied | failed (the write was refused or failed; error_code says why), and
 * pending -> superseded when a newer proposal for the same path arrives. At most one
 * pending proposal per (repo_root, path), by a partial unique index. `path` is
 * relative to repo_root, the workspace.
 */
export const writeProposals = sqliteTable(
  'write_proposals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    path: text('path').notNull(),
    content: text('content').notNull(),
    createDirs: integer('create_dirs', { mode: 'boolean' }).notNull(),
    agent: text('agent').notNull(),
    /** pending | approved | applied | failed | rejected | superseded */
    status: text('status').notNull(),
    createdAt: integer('created_at').notNull(),
    /** The write-proposal observation. */
    observationId: integer('observation_id').notNull(),
    decidedBy: text('decided_by'),
    decidedAt: integer('decided_at'),
    notes: text('notes'),
    errorCode: text('error_code'),
  },
  (t) => [
    uniqueIndex('write_proposals_pending_uq').on(t.repoRoot, t.path).where(sql`status = 'pending'`),
    index('write_proposals_status_idx').on(t.repoRoot, t.status, t.id),
  ],
);
