/**
 * @module swarm/tui/throttle
 * Coalesced delivery: however often `push` is called, `deliver` runs at most once per
 * `intervalMs` with the latest value, and the last value pushed is always delivered.
 * The dashboard's data source redraws through this (at most 10 times a second).
 */

export interface Coalescer<T> {
  push(value: T): void;
  /** Drops a pending delivery (on exit). */
  cancel(): void;
}

export function coalesce<T>(deliver: (value: T) => void, intervalMs: number): Coalescer<T> {
  let last = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  let pending: { value: T } | null = null;
  const flush = () => {
    timer = null;
    if (!pending) return;
    const { value } = pending;
    pending = null;
    last = performance.now();
    deliver(value);
  };
  return {
    push(value) {
      pending = { value };
      if (timer) return;
      const wait = last + intervalMs - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
