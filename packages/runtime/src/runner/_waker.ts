/**
 * @module runner/_waker
 * A sleep that something else can cut short: the runner waits on it for backoffs and
 * idle spells, and interrupts, stops and new messages wake it.
 */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Waker {
  private resolveWait: (() => void) | null = null;
  private pending = false;

  /** Wakes the current wait, or the next one when none is under way. */
  wake(): void {
    if (this.resolveWait) {
      const resolve = this.resolveWait;
      this.resolveWait = null;
      resolve();
    } else this.pending = true;
  }

  /** Forgets a wake nobody waited for (the messages it announced were just read). */
  clear(): void {
    this.pending = false;
  }

  /** Resolves true when woken, false when `sleep` finished first (null ms = no timer). */
  async wait(ms: number | null, sleep: Sleep): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return true;
    }
    let woken = false;
    const wake = new Promise<void>((resolve) => {
      this.resolveWait = () => {
        woken = true;
        resolve();
      };
    });
    await (ms === null ? wake : Promise.race([wake, sleep(Math.max(0, ms))]));
    this.resolveWait = null;
    return woken;
  }
}
