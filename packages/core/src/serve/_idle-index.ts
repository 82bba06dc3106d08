/**
 * @module serve/idle-index
 * The MCP server fills in observation vectors while nobody is calling it (a job of
 * serve/idle): once no call has run for IDLE_INDEX_DELAY_MS, one bounded backfill step
 * runs (at most 64 rows embedded, one write transaction), and steps continue while rows
 * are left and the server stays idle. Inserts never wait for embedding, and a call
 * arriving mid-backfill waits for one step at most.
 */
import type { Colony } from '../open-colony';
import type { IdleJob } from './_idle';

/** Quiet time after a call before a step runs, and between steps. */
export const IDLE_INDEX_DELAY_MS = 50;
/**
 * How long a step waits for another process's write lock: it runs on the server's only
 * thread, and many servers starting at once must not queue their background writes
 * behind (and in front of) each other's calls. A busy step is tried after the next call.
 */
export const IDLE_INDEX_LOCK_WAIT_MS = 20;

export class IdleIndexer implements IdleJob {
  readonly quietMs = IDLE_INDEX_DELAY_MS;
  readonly #colony: Colony;
  readonly #onError: (error: unknown) => void;

  constructor(colony: Colony, onError: (error: unknown) => void) {
    this.#colony = colony;
    this.#onError = onError;
  }

  /** One step; true while rows are left (the next step after another quiet time). */
  async run(): Promise<boolean> {
    try {
      const { done } = await this.#colony.vectors.step(undefined, undefined, IDLE_INDEX_LOCK_WAIT_MS);
      return !done;
    } catch (error) {
      // A busy store or a full disk: try again after the next call, never fail one.
      if (!isBusy(error)) this.#onError(error);
      return false;
    }
  }
}

/** STORE_BUSY (or SQLite's own busy code), checked by code: this module loads before storage does. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'STORE_BUSY' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'));
}
