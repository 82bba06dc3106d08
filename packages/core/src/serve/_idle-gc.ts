/**
 * @module serve/idle-gc
 * A stdio server idles for hours between calls, holding whatever its old generation grew
 * to while the first call loaded its modules: pages a quarter empty that V8's memory
 * reducer gives back only ~8 s after the allocation stops, if ever. When no call has run
 * for IDLE_GC_DELAY_MS, one full collection that compacts the old generation runs (a few
 * ms of otherwise idle time) and returns those pages: ~2.5 MiB of RSS after the first
 * call (docs/benchmarks.md). A call in flight, or under way in the meantime, postpones
 * it (a job of serve/idle that waits for no call in flight); under steady load it never
 * runs. Compacting moves every live object (~20-70 ms for the ~11 MiB of a fresh server
 * on a loaded machine), so a heap above IDLE_GC_MAX_HEAP is left to V8's own
 * heuristics. `COLONY_MCP_IDLE_GC=0` turns it off.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { IdleJob } from './_idle';

/** Quiet time after the last call before the collection runs. */
export const IDLE_GC_DELAY_MS = 750;
/** The largest used heap (bytes) the idle collection compacts. */
export const IDLE_GC_MAX_HEAP = 64 * 1024 * 1024;

export class IdleGc implements IdleJob {
  readonly quietMs: number;
  readonly noCallInFlight = true;
  readonly #maxHeap: number;
  #collect: (() => void) | undefined;
  #runs = 0;

  constructor(quietMs = IDLE_GC_DELAY_MS, maxHeap = IDLE_GC_MAX_HEAP) {
    this.quietMs = quietMs;
    this.#maxHeap = maxHeap;
  }

  /** Collections run so far. */
  get runs(): number {
    return this.#runs;
  }

  run(): undefined {
    if (getHeapStatistics().used_heap_size > this.#maxHeap) return undefined;
    try {
      this.#collect ??= exposedGc();
      setFlagsFromString('--compact-on-every-full-gc');
      this.#collect();
      this.#runs++;
    } catch {
      // a V8 that refuses: the memory reducer still collects, later
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
    return undefined;
  }
}

/** V8's `gc` without `--expose-gc` on the command line: exposed for one new context only. */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** The idle collection of a stdio server, unless `COLONY_MCP_IDLE_GC=0`. */
export function idleGcFrom(env: NodeJS.ProcessEnv = process.env): IdleGc | undefined {
  return env.COLONY_MCP_IDLE_GC === '0' ? undefined : new IdleGc();
}
