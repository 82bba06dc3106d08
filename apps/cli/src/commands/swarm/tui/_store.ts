/**
 * @module swarm/tui/store
 * The dashboard's data as an external store (React's `useSyncExternalStore` shape): the
 * poller `set`s snapshots as often as it reads; subscribers hear of them coalesced, at
 * most once per `intervalMs` (default 100 ms: at most 10 redraws a second from data).
 */
import { EMPTY_SNAPSHOT, type Snapshot } from './_model';
import { coalesce } from './_throttle';

export interface SnapshotStore {
  current(): Snapshot;
  subscribe(listener: () => void): () => void;
  set(snapshot: Snapshot): void;
  close(): void;
}

export function snapshotStore(initial: Snapshot = EMPTY_SNAPSHOT, intervalMs = 100): SnapshotStore {
  let current = initial;
  const listeners = new Set<() => void>();
  const delivery = coalesce<Snapshot>((snapshot) => {
    current = snapshot;
    for (const listener of listeners) listener();
  }, intervalMs);
  return {
    current: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set: (snapshot) => delivery.push(snapshot),
    close: () => delivery.cancel(),
  };
}
