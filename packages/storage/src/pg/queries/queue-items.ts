/**
 * @module pg/queries/queue-items
 * The seed-000 work queue (`src/queue-items.ts`) on PostgreSQL. Every state change is
 * one guarded UPDATE. Taking the next item locks its row with `FOR UPDATE SKIP LOCKED`:
 * two takers at once get two different items (the second skips the row the first
 * holds), never the same one. Payloads and results stay JSON text.
 */
import type { Lease, NewQueueItem, QueueCounts, QueueItem } from '../../queue-items';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { execute, numbered } from './_common';

const COLUMNS = 'id, kind, payload, status, claimed_by AS "claimedBy", lease_until AS "leaseUntil", attempts';
/** An item a new holder may take: queued, or claimed under a lease that has run out (`$now`). */
const available = (now: string) => `(status = 'queued' OR lease_until <= ${now})`;
const item = (r: Record<string, unknown> | undefined): QueueItem | undefined =>
  r === undefined ? undefined : numbered<QueueItem>(r, ['id', 'leaseUntil', 'attempts']);

async function one(store: PgStore, text: string, values: unknown[]): Promise<QueueItem | undefined> {
  const { rows } = await pgClient(store).query(text, values);
  return item(rows[0] as Record<string, unknown> | undefined);
}

export async function insertQueueItem(store: PgStore, entry: NewQueueItem, now: number): Promise<number> {
  const { rows } = await pgClient(store).query(
    `INSERT INTO queue_items (kind, payload, status, enqueued_by, created_at) VALUES ($1, $2, 'queued', $3, $4) RETURNING id`,
    [entry.kind, entry.payload, entry.enqueuedBy, now],
  );
  return Number((rows[0] as { id: string }).id);
}

export function getQueueItem(store: PgStore, id: number): Promise<QueueItem | undefined> {
  return one(store, `SELECT ${COLUMNS} FROM queue_items WHERE id = $1`, [id]);
}

/** Takes the oldest available item under a new lease; undefined when none is available. */
export function takeNextQueueItem(store: PgStore, lease: Lease): Promise<QueueItem | undefined> {
  return one(
    store,
    `UPDATE queue_items SET status = 'claimed', claimed_by = $1, lease_until = $2, claimed_at = $3,
       attempts = attempts + 1
     WHERE id = (SELECT id FROM queue_items WHERE status <> 'done' AND ${available('$3')}
                 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [lease.agent, lease.leaseUntil, lease.now],
  );
}

/**
 * Leases one item: when it is available, or already held by the same agent (a renewal).
 * Undefined when another agent holds it under a live lease, or it is done.
 */
export function leaseQueueItem(store: PgStore, id: number, lease: Lease): Promise<QueueItem | undefined> {
  return one(
    store,
    `UPDATE queue_items SET status = 'claimed', claimed_by = $1, lease_until = $2, claimed_at = $3,
       attempts = attempts + (CASE WHEN status = 'claimed' AND claimed_by = $1 AND lease_until > $3 THEN 0 ELSE 1 END)
     WHERE id = $4 AND status <> 'done' AND (${available('$3')} OR claimed_by = $1)
     RETURNING ${COLUMNS}`,
    [lease.agent, lease.leaseUntil, lease.now, id],
  );
}

/** Marks an item done when `agent` holds it; false otherwise. */
export async function completeQueueItem(
  store: PgStore,
  id: number,
  agent: string,
  result: string,
  now: number,
): Promise<boolean> {
  const changed = await execute(
    store,
    `UPDATE queue_items SET status = 'done', result = $1, completed_by = $2, completed_at = $3
     WHERE id = $4 AND status = 'claimed' AND claimed_by = $2`,
    [result, agent, now, id],
  );
  return changed === 1;
}

/** Moves the lease end of an item `agent` holds; false otherwise. */
export async function extendQueueLease(
  store: PgStore,
  id: number,
  agent: string,
  leaseUntil: number,
): Promise<boolean> {
  const changed = await execute(
    store,
    `UPDATE queue_items SET lease_until = $1 WHERE id = $2 AND status = 'claimed' AND claimed_by = $3`,
    [leaseUntil, id, agent],
  );
  return changed === 1;
}

export async function queueCounts(store: PgStore, now: number): Promise<QueueCounts> {
  const { rows } = await pgClient(store).query(
    `SELECT
       (SELECT COUNT(*) FROM queue_items WHERE status = 'queued')
         + (SELECT COUNT(*) FROM queue_items WHERE status = 'claimed' AND lease_until <= $1) AS queued,
       (SELECT COUNT(*) FROM queue_items WHERE status = 'claimed' AND lease_until > $1) AS claimed,
       (SELECT COUNT(*) FROM queue_items WHERE status = 'done') AS done`,
    [now],
  );
  return numbered<QueueCounts>(rows[0] as Record<string, unknown>, ['queued', 'claimed', 'done']);
}

/** The item coord_next would hand out now, without taking it. */
export function queueFront(store: PgStore, now: number): Promise<QueueItem | undefined> {
  return one(
    store,
    `SELECT ${COLUMNS} FROM queue_items WHERE status <> 'done' AND ${available('$1')} ORDER BY id LIMIT 1`,
    [now],
  );
}
