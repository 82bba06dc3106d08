/**
 * @module runner/heartbeat
 * A running agent's sign of life on its colony session, so its lane reads working or
 * thinking in hivemind while it works: the runner beats at each session start and, on
 * model/tool events, at most once per interval (the injected clock, no timer). A stopped
 * agent makes no events, so its lane ages to idle, stalled and dead. A beat never
 * overlaps the previous one and a failed beat is ignored (the next one retries).
 */
export const DEFAULT_HEARTBEAT_SECS = 30;

export class Heartbeat {
  private last: number | null = null;
  private inFlight = false;

  constructor(
    private readonly beat: () => Promise<void>,
    private readonly now: () => number,
    private readonly interval_ms = DEFAULT_HEARTBEAT_SECS * 1000,
  ) {}

  /** Beats when forced (a session starts) or when the interval has passed since the last beat. */
  tick(force = false): void {
    const now = this.now();
    if (this.inFlight) return;
    if (!force && this.last !== null && now - this.last < this.interval_ms) return;
    this.last = now;
    this.inFlight = true;
    this.beat()
      .catch(() => undefined)
      .finally(() => {
        this.inFlight = false;
      });
  }
}
