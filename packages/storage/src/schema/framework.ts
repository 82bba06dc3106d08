/**
 * @module schema/framework
 * Seed-000 framework tools: the shared context and the work queue.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Seed-000 shared context: one versioned JSON value per key. `version` starts at 1
 * and grows by one per write, so conditional writes (if_version) are one guarded
 * UPDATE. `value` holds JSON text. High-volume: rows carry who and when instead of an
 * observation per write.
 */
export const contextEntries = sqliteTable('context_entries', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  version: integer('version').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Seed-000 work queue, FIFO by id. queued -> claimed (claimed_by, lease_until) -> done.
 * A claimed item whose lease_until has passed is available again: expiry is computed
 * from the injected clock at read time, never written by a sweeper. Hand-outs are
 * guarded UPDATEs inside BEGIN IMMEDIATE, so no item has two holders at once. The
 * partial index keeps "oldest open item" cheap however many items are done.
 */
export const queueItems = sqliteTable(
  'queue_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    /** JSON text. */
    payload: text('payload').notNull(),
    /** queued | claimed | done */
    status: text('status').notNull(),
    claimedBy: text('claimed_by'),
    leaseUntil: integer('lease_until'),
    /** How many leases were handed out for this item. */
    attempts: integer('attempts').notNull().default(0),
    /** JSON text given to coord_complete. */
    result: text('result'),
    enqueuedBy: text('enqueued_by').notNull(),
    createdAt: integer('created_at').notNull(),
    claimedAt: integer('claimed_at'),
    completedBy: text('completed_by'),
    completedAt: integer('completed_at'),
  },
  (t) => [
    index('queue_items_open_idx').on(t.id).where(sql`status != 'done'`),
    index('queue_items_status_idx').on(t.status, t.leaseUntil),
  ],
);
