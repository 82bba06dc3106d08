/**
 * @module serve/idle-checkpoint
 * The MCP server checkpoints its WAL while nobody is calling it, not on a call. By
 * default SQLite makes the commit that takes the WAL past 1,000 pages (~50 task_posts)
 * copy it into the database file and sync both files, on the call's thread; the server
 * raises that threshold to SERVE_AUTO_CHECKPOINT_PAGES (a backstop under sustained load:
 * the WAL stays bounded) and runs one PASSIVE checkpoint once no call has run for
 * IDLE_CHECKPOINT_DELAY_MS after one that may have written. PASSIVE never waits for
 * other processes; what it cannot copy now, the next idle checkpoint (or another
 * connection's) copies. Before it, the observations not yet indexed for search are
 * indexed (`Colony.indexPending`: their batch, see @swarm/storage _fts-batch). A call
 * costs one clock read here: the timer re-arms itself.
 */
import type { Colony } from '../open-colony';

/** Quiet time after the last call before the checkpoint runs. */
export const IDLE_CHECKPOINT_DELAY_MS = 500;
/** The server's `wal_autocheckpoint` (pages; 16 MiB of 4 KiB pages) instead of SQLite's 1,000. */
export const SERVE_AUTO_CHECKPOINT_PAGES = 4000;

type Checkpointing = Pick<Colony, 'checkpoint' | 'setAutoCheckpoint'> & Partial<Pick<Colony, 'indexPending'>>;

export class IdleCheckpoint {
  readonly #colony: Checkpointing;
  readonly #delayMs: number;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #lastCall = 0;
  #stopped = false;
  #runs = 0;

  constructor(colony: Checkpointing, onError: (error: unknown) => void, delayMs = IDLE_CHECKPOINT_DELAY_MS) {
    this.#colony = colony;
    this.#onError = onError;
    this.#delayMs = delayMs;
    colony.setAutoCheckpoint(SERVE_AUTO_CHECKPOINT_PAGES);
  }

  /** A call ran: checkpoint once the server has been quiet for the delay. */
  poke(): void {
    if (this.#stopped) return;
    this.#lastCall = performance.now();
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.#due(), this.#delayMs);
    this.#timer.unref();
  }

  /** Checkpoints run so far. */
  get runs(): number {
    return this.#runs;
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #due(): void {
    const quiet = performance.now() - this.#lastCall;
    if (quiet < this.#delayMs) {
      this.#timer = setTimeout(() => this.#due(), this.#delayMs - quiet);
      this.#timer.unref();
      return;
    }
    this.#timer = undefined;
    // First the observations not indexed for search yet (their batch), so the checkpoint copies those pages too.
    const indexed = this.#colony.indexPending?.();
    if (!indexed) {
      this.#checkpoint();
      return;
    }
    indexed.then(
      () => this.#checkpoint(),
      (error: unknown) => {
        this.#onError(error);
        this.#checkpoint();
      },
    );
  }

  #checkpoint(): void {
    if (this.#stopped) return;
    try {
      if (this.#colony.checkpoint('PASSIVE')) this.#runs++;
    } catch (error) {
      // A full disk or a closing store: SQLite's backstop and the next idle time still checkpoint.
      this.#onError(error);
    }
  }
}
