/**
 * @module clock
 * Time is injected: domain code reads a Clock, never Date.now(), so TTLs, expiry and
 * staleness are tested deterministically.
 */
import { readFileSync } from 'node:fs';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to: for tests and simulations. */
export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/**
 * A clock read from a file holding epoch milliseconds, on every `now()`. It lets a test
 * drive the clock of a server running in another process (`COLONY_CLOCK_FILE`). While
 * the file is missing or holds no number, system time is used.
 */
export function fileClock(path: string): Clock {
  return {
    now: () => {
      try {
        const ms = Number(readFileSync(path, 'utf8').trim());
        return Number.isFinite(ms) && ms > 0 ? ms : Date.now();
      } catch {
        return Date.now();
      }
    },
  };
}
