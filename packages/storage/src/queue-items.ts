/**
 * @module queue-items
 * The work queue of seed 000. Every state change is one guarded UPDATE: an item is
 * handed out only while it is queued or its lease has run out, and completed or
 * extended only by its holder. Run them inside `store.write` (BEGIN IMMEDIATE) so the
 * read that chose an item and the write that takes it see the same state.
 * Payloads and results stay JSON text here.
 */
import { type Store, statement } from './_store';

export type QueueStatus = 'queued' | 'claimed' | 'done';

export interface QueueItem {
  readonly id: number;
  readonly kind: string;
  /** JSON text. */
  readonly payload: string;
  readonly status: QueueStatus;
  readonly claimedBy: string | null;
  readonly leaseUntil: number | null;
  readonly attempts: number;
}

export interface NewQueueItem {
  readonly kind: string;
  /** JSON text. */
  readonly payload: string;
  readonly enqueuedBy: string;
}

export interface Lease {
  readonly agent: string;
  readonly now: number;
  readonly leaseUntil: number;
}

const COLUMNS = 'id, kind, payload, status, claimed_by AS claimedBy, lease_until AS leaseUntil, attempts';
/** An item a new holder may take: queued, or claimed under a lease that has run out. */
const AVAILABLE = "(status = 'queued' OR lease_until <= @now)";

export function insertQueueItem(store: Store, item: NewQueueItem, now: number): number {
  const result = statement(
    store,
    `INSERT INTO queue_items (kind, payload, status, enqueued_by, created_at) VALUES (?, ?, 'queued', ?, ?)`,
  ).run(item.kind, item.payload, item.enqueuedBy, now);
  return Number(result.lastInsertRowid);
}

export function getQueueItem(store: Store, id: number): QueueItem | undefined {
  return statement(store, `SELECT ${COLUMNS} FROM queue_items WHERE id = ?`).get(id) as QueueItem | undefined;
}

/** Takes the oldest available item under a new lease; undefined when none is available. */
export function takeNextQueueItem(store: Store, lease: Lease): QueueItem | undefined {
  return statement(
    store,
    `UPDATE queue_items SET status = 'claimed', claimed_by = @agent, lease_until = @leaseUntil,
       claimed_at = @now, attempts = attempts + 1
     WHERE id = (SELECT id FROM queue_items WHERE status != 'done' AND ${AVAILABLE} ORDER BY id LIMIT 1)
     RETURNING ${COLUMNS}`,
  ).get(lease) as QueueItem | undefined;
}

/**
 * Leases one item: when it is available, or already held by the same agent (a renewal).
 * Undefined when another agent holds it under a live lease, or it is done.
 */
export function leaseQueueItem(store: Store, id: number, lease: Lease): QueueItem | undefined {
  return statement(
    store,
    `UPDATE queue_items SET status = 'claimed', claimed_by = @agent, lease_until = @leaseUntil, claimed_at = @now,
       attempts = attempts + (CASE WHEN status = 'claimed' AND claimed_by = @agent AND lease_until > @now THEN 0 ELSE 1 END)
     WHERE id = @id AND status != 'done' AND (${AVAILABLE} OR claimed_by = @agent)
     RETURNING ${COLUMNS}`,
  ).get({ ...lease, id }) as QueueItem | undefined;
}

/** Marks an item done when `agent` holds it; false otherwise. */
export function completeQueueItem(store: Store, id: number, agent: string, result: string, now: number): boolean {
  const changed = statement(
    store,
    `UPDATE queue_items SET status = 'done', result = ?, completed_by = ?, completed_at = ?
     WHERE id = ? AND status = 'claimed' AND claimed_by = ?`,
  ).run(result, agent, now, id, agent).changes;
  return changed === 1;
}

/** Moves the lease end of an item `agent` holds; false otherwise. */
export function extendQueueLease(store: Store, id: number, agent: string, leaseUntil: number): boolean {
  const changed = statement(
    store,
    `UPDATE queue_items SET lease_until = ? WHERE id = ? AND status = 'claimed' AND claimed_by = ?`,
  ).run(leaseUntil, id, agent).changes;
  return changed === 1;
}

export interface QueueCounts {
  /** Waiting, including claimed items whose lease has run out. */
  readonly queued: number;
  /** Held under a live lease. */
  readonly claimed: number;
  readonly done: number;
}

export function queueCounts(store: Store, now: number): QueueCounts {
  // Each count is a range of the (status, lease_until) index, not a table scan.
  return statement(
    store,
    `SELECT
       (SELECT COUNT(*) FROM queue_items WHERE status = 'queued')
         + (SELECT COUNT(*) FROM queue_items WHERE status = 'claimed' AND lease_until <= @now) AS queued,
       (SELECT COUNT(*) FROM queue_items WHERE status = 'claimed' AND lease_until > @now) AS claimed,
       (SELECT COUNT(*) FROM queue_items WHERE status = 'done') AS done`,
  ).get({ now }) as QueueCounts;
}

/** The item coord_next would hand out now, without taking it. */
export function queueFront(store: Store, now: number): QueueItem | undefined {
  return statement(
    store,
    `SELECT ${COLUMNS} FROM queue_items WHERE status != 'done' AND ${AVAILABLE} ORDER BY id LIMIT 1`,
  ).get({ now }) as QueueItem | undefined;
}
