/**
 * @module serial-writes
 * Writes that decide from what they read (rank the ready work, then claim the pick;
 * plan a rescue, then apply it) and must not interleave with a racing write of the
 * same kind. On SQLite every write already runs alone (BEGIN IMMEDIATE), so there is
 * nothing to do; the PostgreSQL twin (pg/queries/serial-writes.ts) takes a lock named
 * by the topic until the write ends, so writes of one topic take turns there too and
 * each reads what the one before it committed.
 */
import type { Store } from './_store';

/** What may need a turn of its own: ready-work auto-claims, stranded-work rescue runs. */
export const SERIAL_WRITE_TOPICS = ['ready_auto_claim', 'rescue_run'] as const;
export type SerialWriteTopic = (typeof SERIAL_WRITE_TOPICS)[number];

/** Call first inside the write: it waits for the other writes of `topic` to end. Nothing to wait for on SQLite. */
export function serializeWrites(_store: Store, _topic: SerialWriteTopic): void {}
