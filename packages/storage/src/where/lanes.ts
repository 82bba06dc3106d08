/**
 * @module where/lanes
 * What waits in a scope, summed from the unread messages and pending batons each
 * dialect reads (SQLite: `json_each`, PostgreSQL: `= ANY`): shared by `src/lanes.ts`
 * and `src/pg/queries/lanes.ts`.
 */

/** What waits in a scope: unread messages and pending batons on its task threads. */
export interface ScopeAttention {
  readonly unreadMessages: number;
  readonly blockingMessages: number;
  /** Pending handoffs, not expired. */
  readonly pendingHandoffs: number;
  /** Pending relays (wakes), not expired. */
  readonly pendingRelays: number;
  /** The newest of their observation ids, at most `idLimit`. */
  readonly observationIds: number[];
}

/** The attention of an empty scope. */
export const noAttention = (): ScopeAttention => ({
  unreadMessages: 0,
  blockingMessages: 0,
  pendingHandoffs: 0,
  pendingRelays: 0,
  observationIds: [],
});

/** The counts and the newest `idLimit` observation ids of these messages and batons. */
export function scopeAttentionOf(
  messages: ReadonlyArray<{ readonly id: number; readonly urgency: string }>,
  batons: ReadonlyArray<{ readonly id: number; readonly kind: string }>,
  idLimit: number,
): ScopeAttention {
  const ids = [...messages.map((m) => m.id), ...batons.map((b) => b.id)].sort((a, b) => b - a).slice(0, idLimit);
  return {
    unreadMessages: messages.length,
    blockingMessages: messages.filter((m) => m.urgency === 'blocking').length,
    pendingHandoffs: batons.filter((b) => b.kind === 'handoff').length,
    pendingRelays: batons.filter((b) => b.kind === 'relay').length,
    observationIds: ids,
  };
}
