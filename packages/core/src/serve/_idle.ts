/**
 * @module serve/idle
 * The server's work for quiet time, on one timer: the vector backfill (serve/idle-index),
 * the WAL checkpoint (serve/idle-checkpoint) and the compacting collection
 * (serve/idle-gc). Each job runs once no call has begun or ended for its quiet time,
 * once per quiet spell (a call makes it due again); a job may ask to run again while the
 * quiet lasts (more rows to embed). A job that must not overlap a call waits until none
 * is in flight. Due jobs run one after another, shortest quiet time first.
 *
 * A call costs two clock reads and a counter (`begin`, `end`): the timer is armed when
 * it is not, and when it fires too early (a call came meanwhile) it re-arms itself for
 * the time left, so a server under load sets a timer per quiet time, not per call.
 */

/** Work for quiet time. */
export interface IdleJob {
  /** Quiet time before it runs: milliseconds since the last call began or ended. */
  readonly quietMs: number;
  /** Runs only while no call is in flight (a collection that moves every object). */
  readonly noCallInFlight?: boolean;
  /**
   * Runs the job. `true`: more is left, run again after another `quietMs` of quiet.
   * A job reports its own errors (one that throws is simply tried after the next call).
   */
  run(): boolean | undefined | Promise<boolean | undefined>;
  /** The server stops: a run under way leaves the store alone from now on. */
  stop?(): void;
}

interface Slot {
  readonly job: IdleJob;
  /** The spell (see `#spell`) the job last ran in; it is due again in a later one. */
  ranIn: number;
  /** When it asked to run again in the same spell: from when its quiet time counts. */
  again: number | undefined;
}

export class IdleScheduler {
  readonly #slots: Slot[] = [];
  readonly #now: () => number;
  /** Counts calls begun and ended: each starts a new quiet spell. */
  #spell = 0;
  #lastCall: number;
  #inFlight = 0;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #stopped = false;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#lastCall = now();
  }

  /** Adds a job; it first runs after the next call (a server that was never called has nothing to do). */
  add(job: IdleJob): void {
    this.#slots.push({ job, ranIn: this.#spell, again: undefined });
    this.#slots.sort((a, b) => a.job.quietMs - b.job.quietMs);
  }

  /** A call begins: quiet time starts again, and no job that must not overlap it starts. */
  begin(): void {
    this.#inFlight++;
    this.#lastCall = this.#now();
    this.#spell++;
  }

  /** A call ended: quiet time starts again. */
  end(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#lastCall = this.#now();
    this.#spell++;
    this.#arm();
  }

  /** No job starts from now on; each is told to stop (one under way ends early). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const { job } of this.#slots) job.stop?.();
  }

  /** When a slot's job is due (undefined: not in this spell, or not while a call is in flight). */
  #dueAt(slot: Slot): number | undefined {
    if (slot.job.noCallInFlight && this.#inFlight > 0) return undefined;
    if (slot.ranIn < this.#spell) return this.#lastCall + slot.job.quietMs;
    return slot.again === undefined ? undefined : slot.again + slot.job.quietMs;
  }

  #arm(): void {
    if (this.#timer || this.#running || this.#stopped) return;
    let next = Number.POSITIVE_INFINITY;
    for (const slot of this.#slots) next = Math.min(next, this.#dueAt(slot) ?? next);
    if (next === Number.POSITIVE_INFINITY) return;
    this.#timer = setTimeout(() => void this.#fire(), Math.max(0, next - this.#now()));
    this.#timer.unref();
  }

  async #fire(): Promise<void> {
    this.#timer = undefined;
    this.#running = true;
    try {
      // A copy: a job added while another runs waits for the next call.
      for (const slot of [...this.#slots]) {
        if (this.#stopped) return;
        const due = this.#dueAt(slot);
        if (due === undefined || due > this.#now()) continue;
        slot.ranIn = this.#spell;
        slot.again = undefined;
        let more: boolean | undefined;
        try {
          more = await slot.job.run();
        } catch {
          // Jobs report their own errors; one that throws anyway is tried after the next call.
        }
        // Asked again, and no call came while it ran: again after its quiet time from now.
        if (more === true && slot.ranIn === this.#spell) slot.again = this.#now();
      }
    } finally {
      this.#running = false;
      this.#arm();
    }
  }
}
