/**
 * @module pg/store/retry
 * The write loop: an attempt that meets another transaction's lock (lock_timeout),
 * a deadlock or a serialization failure is rolled back and tried again after a
 * jittered, doubling pause while the wait allowed remains. With `unlessSettled` the
 * tries wait for locks in slices (25 ms doubling to 400 ms) instead of the whole wait
 * at once, and the read is asked before each new try: its answer, once defined, ends
 * the loop without writing (as SQLite's lock poll, _lock-poll.ts).
 */
import { isConflict } from './_errors';

export interface RetryPlan<T> {
  /** One whole transaction; `deadline` bounds its lock waits (epoch ms). */
  attempt(deadline: number): Promise<T>;
  /** The answer that makes the write unneeded, read outside the transaction. */
  settled?: () => Promise<T | undefined>;
  /** How long the whole write may wait for locks, in ms. */
  waitMs: number;
  /** The error for a wait spent (STORE_BUSY); `cause` is the last conflict. */
  busy(cause: unknown): unknown;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The pause before try `n + 1`: 5 ms doubling up to 200 ms, times 0.5-1.5. */
export function backoffMs(n: number): number {
  return Math.min(5 * 2 ** n, 200) * (0.5 + Math.random());
}

/** How long try `n` may wait for locks when a settled read is asked between tries. */
const sliceMs = (n: number) => Math.min(25 * 2 ** n, 400);

export async function retryConflicts<T>(plan: RetryPlan<T>): Promise<T> {
  const deadline = Date.now() + plan.waitMs;
  for (let n = 0; ; n++) {
    try {
      return await plan.attempt(plan.settled ? Math.min(deadline, Date.now() + sliceMs(n)) : deadline);
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (plan.settled) {
        const answer = await plan.settled();
        if (answer !== undefined) return answer;
      }
      const pause = backoffMs(n);
      if (Date.now() + pause >= deadline) throw plan.busy(error);
      await sleep(pause);
    }
  }
}
