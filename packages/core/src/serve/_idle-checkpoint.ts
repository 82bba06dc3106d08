/**
 * @module serve/idle-checkpoint
 * The MCP server checkpoints its WAL while nobody is calling it, not on a call. By
 * default SQLite makes the commit that takes the WAL past 1,000 pages (~50 task_posts)
 * copy it into the database file and sync both files, on the call's thread; the server
 * raises that threshold to SERVE_AUTO_CHECKPOINT_PAGES (a backstop under sustained load:
 * the WAL stays bounded) and runs one PASSIVE checkpoint once no call has run for
 * IDLE_CHECKPOINT_DELAY_MS after one that may have written (a job of serve/idle).
 * PASSIVE never waits for other processes; what it cannot copy now, the next idle
 * checkpoint (or another connection's) copies. Before it, the observations not yet
 * indexed for search are indexed (`Colony.indexPending`: their batch, see
 * @swarm/storage _fts-batch).
 */
import type { Colony } from '../open-colony';
import type { IdleJob } from './_idle';

/** Quiet time after the last call before the checkpoint runs. */
export const IDLE_CHECKPOINT_DELAY_MS = 500;
/** The server's `wal_autocheckpoint` (pages; 16 MiB of 4 KiB pages) instead of SQLite's 1,000. */
export const SERVE_AUTO_CHECKPOINT_PAGES = 4000;

type Checkpointing = Pick<Colony, 'checkpoint' | 'setAutoCheckpoint'> & Partial<Pick<Colony, 'indexPending'>>;

export class IdleCheckpoint implements IdleJob {
  readonly quietMs: number;
  readonly #colony: Checkpointing;
  readonly #onError: (error: unknown) => void;
  #runs = 0;
  #stopped = false;

  constructor(colony: Checkpointing, onError: (error: unknown) => void, quietMs = IDLE_CHECKPOINT_DELAY_MS) {
    this.#colony = colony;
    this.#onError = onError;
    this.quietMs = quietMs;
    colony.setAutoCheckpoint(SERVE_AUTO_CHECKPOINT_PAGES);
  }

  /** Checkpoints run so far. */
  get runs(): number {
    return this.#runs;
  }

  /** The store is closing: a run under way does not checkpoint it. */
  stop(): void {
    this.#stopped = true;
  }

  async run(): Promise<undefined> {
    // First the observations not indexed for search yet (their batch), so the checkpoint copies those pages too.
    try {
      await this.#colony.indexPending?.();
    } catch (error) {
      this.#onError(error);
    }
    if (this.#stopped) return undefined;
    try {
      if (this.#colony.checkpoint('PASSIVE')) this.#runs++;
    } catch (error) {
      // A full disk or a closing store: SQLite's backstop and the next idle time still checkpoint.
      this.#onError(error);
    }
    return undefined;
  }
}
