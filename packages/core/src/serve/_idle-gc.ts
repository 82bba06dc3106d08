/**
 * @module serve/idle-gc
 * A stdio server idles for hours between calls, holding whatever its old generation grew
 * to while the first call loaded its modules: pages a quarter empty that V8's memory
 * reducer gives back only ~8 s after the allocation stops, if ever. When no call has run
 * for IDLE_GC_DELAY_MS, one full collection that compacts the old generation runs (a few
 * ms of otherwise idle time) and returns those pages: ~2.5 MiB of RSS after the first
 * call (docs/benchmarks.md). A call in flight, or under way in the meantime, postpones
 * it; under steady load it never runs. Compacting moves every live object (~20-70 ms for
 * the ~11 MiB of a fresh server on a loaded machine), so a heap above IDLE_GC_MAX_HEAP
 * is left to V8's own heuristics. `COLONY_MCP_IDLE_GC=0` turns it off.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Quiet time after the last call before the collection runs. */
export const IDLE_GC_DELAY_MS = 750;
/** The largest used heap (bytes) the idle collection compacts. */
export const IDLE_GC_MAX_HEAP = 64 * 1024 * 1024;

export class IdleGc {
  readonly #delayMs: number;
  readonly #maxHeap: number;
  #timer: NodeJS.Timeout | undefined;
  #inFlight = 0;
  #stopped = false;
  #collect: (() => void) | undefined;
  #runs = 0;

  constructor(delayMs = IDLE_GC_DELAY_MS, maxHeap = IDLE_GC_MAX_HEAP) {
    this.#delayMs = delayMs;
    this.#maxHeap = maxHeap;
  }

  /** A call starts: nothing collects until it ends. */
  begin(): void {
    this.#inFlight++;
    clearTimeout(this.#timer);
  }

  /** A call ended: the collection runs after the quiet time, unless another call starts. */
  end(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (this.#stopped || this.#inFlight > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run(), this.#delayMs);
    this.#timer.unref();
  }

  /** Collections run so far. */
  get runs(): number {
    return this.#runs;
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #run(): void {
    this.#timer = undefined;
    if (getHeapStatistics().used_heap_size > this.#maxHeap) return;
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
