/**
 * @module store/lock-poll
 * A write that may turn out to be unneeded: instead of sleeping in SQLite's busy
 * handler (which backs off to 25-100 ms sleeps while the lock holder works), the lock
 * is tried without waiting, and between tries a read (WAL readers never wait for the
 * writer) asks whether the write is still needed. Of many processes racing for one
 * row, the losers learn they lost as soon as the winner commits, without queueing
 * for the lock one after another.
 */
/** Pause between looks at the store's version, in milliseconds: 1 ms at first, then 2 ms. */
const pauseMs = (i: number) => (i < 10 ? 1 : 2);
/**
 * When to try the lock again without a commit seen (the holder may roll back), in
 * milliseconds since the first try: SQLite's own busy-handler schedule.
 */
const RETRY_AT_MS = [1, 3, 8, 18, 33, 53, 78, 103, 128, 178, 228];
const retryAtMs = (n: number) => RETRY_AT_MS[n] ?? 228 + (n - RETRY_AT_MS.length + 1) * 100;

export interface LockPoll<T> {
  /** One try for the lock (busy timeout 0): the write, or a STORE_BUSY / SQLITE_BUSY throw. */
  readonly attempt: () => T;
  /** Read between tries: the answer when the write is no longer needed, else undefined. May throw (an answer too). */
  readonly settled: () => T | undefined;
  /** A number that changes when another connection commits (PRAGMA data_version): `settled` runs only then. */
  readonly version: () => unknown;
  readonly timeoutMs: number;
}

export function pollForLock<T>({ attempt, settled, version, timeoutMs }: LockPoll<T>): T {
  const start = Date.now();
  const deadline = start + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let seen = version();
  let retries = 0;
  for (let i = 0; ; i++) {
    try {
      return attempt();
    } catch (error) {
      if (!isStoreBusy(error) || Date.now() >= deadline) throw error;
    }
    // Between tries, look at the store's version (cheap) and read only once another
    // connection has committed: a commit that settles it is answered without the lock.
    // A failed try costs more than a look, so the lock is tried again only after a
    // commit or on SQLite's busy schedule (the holder may have rolled back).
    for (;;) {
      Atomics.wait(pause, 0, 0, pauseMs(i++));
      const now = version();
      if (now !== seen) {
        seen = now;
        const answer = settled();
        if (answer !== undefined) return answer;
        break;
      }
      const waited = Date.now() - start;
      if (waited >= retryAtMs(retries) || Date.now() >= deadline) break;
    }
    retries++;
  }
}

/** Whether an error is a lock another connection held past the wait (SQLite busy, STORE_BUSY, a PostgreSQL lock conflict). */
export function isStoreBusy(error: unknown): boolean {
  // drizzle wraps a driver's error (`cause`): PostgreSQL's lock_timeout, serialization
  // failure and deadlock (55P03, 40001, 40P01) are another writer holding what this needed.
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    return code.startsWith('SQLITE_BUSY') || code === 'STORE_BUSY' || PG_CONFLICTS.has(code);
  }
  return false;
}

const PG_CONFLICTS = new Set(['55P03', '40001', '40P01']);
