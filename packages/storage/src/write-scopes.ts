/**
 * @module write-scopes
 * A write that reads, checks, then changes something (a message's status, by a guarded
 * update) or that also changes files outside the store (a repository's spec files)
 * names its scope first, so two such writes on one scope never run at once across
 * processes and each checks what the one before it committed; so does a write that
 * decides from what it reads (rank the ready work, then claim the pick; plan a rescue,
 * then apply it). On SQLite every write already holds the store's one write lock (BEGIN
 * IMMEDIATE), so naming the scope costs nothing; PostgreSQL's writers run side by side,
 * and its twin takes a lock on the scope until the transaction ends.
 */
import type { Store } from './_store';

/** Serialises this write with every other write on `scope` (call it inside `store.write`). */
export function lockWriteScope(_store: Store, _scope: string): void {}
