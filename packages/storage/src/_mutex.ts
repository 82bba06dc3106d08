/**
 * @module store/mutex
 * A first-in, first-out lock for one process: the store's writers (and reads outside a
 * write) take turns on its one connection. Taking a free lock is synchronous, so a
 * caller that finds it free runs at once, in call order; a waiter is handed the lock
 * directly on release, so nobody overtakes the queue.
 */
export class Mutex {
  #held = false;
  readonly #waiters: (() => void)[] = [];

  /** Takes the lock when it is free; false when someone holds it. */
  tryAcquire(): boolean {
    if (this.#held) return false;
    this.#held = true;
    return true;
  }

  /** Resolves once the lock is this caller's (in call order). */
  acquire(): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Hands the lock to the next waiter, or frees it. */
  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }

  get held(): boolean {
    return this.#held;
  }
}
