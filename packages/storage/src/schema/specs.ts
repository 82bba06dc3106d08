/**
 * @module schema/specs
 * Test failures seen while building spec changes.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { proposals } from './proposals';

/**
 * Test failures seen while building a spec change, one row per (repo_root, signature):
 * the count decides when a failure is promoted to an invariant proposal.
 */
export const specFailures = sqliteTable(
  'spec_failures',
  {
    repoRoot: text('repo_root').notNull(),
    signatureHash: text('signature_hash').notNull(),
    testId: text('test_id').notNull(),
    summary: text('summary').notNull(),
    count: integer('count').notNull(),
    firstSeenAt: integer('first_seen_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    proposalId: integer('proposal_id').references(() => proposals.id),
  },
  (t) => [primaryKey({ columns: [t.repoRoot, t.signatureHash] })],
);
