/**
 * @module store/lock-poll
 * A write that may turn out to be unneeded: instead of sleeping in SQLite's busy
 * handler (which backs off to 25-100 ms sleeps while the lock holder works), the lock
 * is tried without waiting, and between tries a read (WAL readers never wait for the
 * writer) asks whether the write is still needed. Of many processes racing for one
 * row, the losers learn they lost as soon as the winner commits, without queueing
 * for the lock one after another.
 */
/** Pauses between tries, in milliseconds: short at first (a write holds the lock ~1 ms), then 5 ms. */
const PAUSES_MS = [0.5, 1, 1, 2, 2, 3, 4];
const LAST_PAUSE_MS = 5;

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
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let seen = version();
  for (let i = 0; ; i++) {
    try {
      return attempt();
    } catch (error) {
      if (!isStoreBusy(error) || Date.now() >= deadline) throw error;
    }
    Atomics.wait(pause, 0, 0, PAUSES_MS[i] ?? LAST_PAUSE_MS);
    // Reading is cheap, but eight processes reading every millisecond are not: read
    // again only once another connection has committed something. Checked before the
    // next try, so a commit that settles it is answered without taking the lock.
    const now = version();
    if (now !== seen) {
      seen = now;
      const answer = settled();
      if (answer !== undefined) return answer;
    }
  }
}

/** Whether an error is SQLite giving up on a lock another connection held past the busy timeout. */
export function isStoreBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === 'STORE_BUSY');
}
