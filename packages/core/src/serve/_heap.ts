/**
 * @module serve/heap
 * A stdio MCP server is one IDE session's companion: it answers a call now and then and
 * idles in between, for hours. Two V8 settings, set by the server itself at start
 * (nothing for the user to pass; V8 reads both each time it uses them, so setting them
 * at run time takes effect), keep what the first call leaves behind small:
 *
 * - The young generation (where short-lived objects are made) stays at its initial size
 *   (`--semi-space-growth-factor=1`). V8 grows it from 1 MiB to 8 MiB per semi-space
 *   while modules load on the first tool call and never gives it back: 14 MiB of an idle
 *   server's RSS were an empty young generation. The cost is more frequent young
 *   collections under load (measured in docs/benchmarks.md).
 *   `COLONY_MCP_YOUNG_GROWTH=default` leaves V8's default.
 * - Functions must run TIER_UP_FACTOR times longer before they are optimized (see
 *   tierUpFlags: the flags differ between V8 11 and 12+), small ones included on V8 11
 *   (`--max-bytecode-size-for-early-opt=0`: no optimizing on a function's first tick). Loading the modules of the first
 *   call (tool schemas, module paths) made a handful of functions hot enough to be
 *   optimized once, which cost ~5 MiB of RSS for good: the optimizing compiler's pages of
 *   the node binary and its memory. Code that stays hot under load is still optimized,
 *   a little later. The baseline compiler (Sparkplug) is off (`--no-sparkplug`): its
 *   machine code for the functions the first call ran once was ~0.6-0.8 MiB of an idle
 *   server's RSS, and task_post's server CPU per call under load did not measurably change
 *   (the interpreter runs until the optimizing compiler takes over).
 *   `COLONY_MCP_TIER_UP=default` leaves V8's defaults.
 *
 * A server under sustained load (TierUpUnderLoad: LOAD_CALLS calls within
 * LOAD_WINDOW_MS, which no interactive session makes) gets V8's default tier-up back, for
 * good: its hot paths are then optimized as soon as V8 would, and the optimizing
 * compiler's memory is the price of throughput there, not of an idle companion's RSS.
 * Measured: the server's main-thread CPU per `task_post` ~30% lower once warm.
 */
import { setFlagsFromString } from 'node:v8';

/** How many times longer than V8's default a function runs before it is optimized. */
export const TIER_UP_FACTOR = 4;

/**
 * The tier-up flags of this V8, scaled by TIER_UP_FACTOR. V8 11 (Node 20) counts an
 * interrupt budget in bytecode (default 66 KiB); V8 12 and later (Node 22, 24) count
 * invocations per tier (Maglev 400, Turbofan 3000) and no longer know the older flags,
 * which they would refuse on stderr. Exported for the test that every flag is known.
 */
export function tierUpFlags(v8Version: string = process.versions.v8): string[] {
  const major = Number.parseInt(v8Version, 10);
  if (major <= 11) {
    return [
      `--interrupt-budget=${66 * 1024 * TIER_UP_FACTOR}`,
      '--max-bytecode-size-for-early-opt=0',
      '--no-sparkplug',
    ];
  }
  return [
    `--invocation-count-for-maglev=${400 * TIER_UP_FACTOR}`,
    `--invocation-count-for-turbofan=${3000 * TIER_UP_FACTOR}`,
    '--no-sparkplug',
  ];
}

/** V8's own tier-up settings (what tierUpFlags scales), to set back at run time. */
export function defaultTierUpFlags(v8Version: string = process.versions.v8): string[] {
  const major = Number.parseInt(v8Version, 10);
  if (major <= 11) return ['--interrupt-budget=67584', '--max-bytecode-size-for-early-opt=81', '--sparkplug'];
  return ['--invocation-count-for-maglev=400', '--invocation-count-for-turbofan=3000', '--sparkplug'];
}

/** Calls within LOAD_WINDOW_MS that make a server "under load". */
export const LOAD_CALLS = 64;
export const LOAD_WINDOW_MS = 2_000;

/**
 * Counts calls; the first time LOAD_CALLS of them fall within LOAD_WINDOW_MS, runs
 * `onLoad` (by default: V8's default tier-up flags) once. One clock read and a ring of
 * LOAD_CALLS numbers per call.
 */
export class TierUpUnderLoad {
  readonly #stamps = new Float64Array(LOAD_CALLS).fill(Number.NEGATIVE_INFINITY);
  readonly #onLoad: () => void;
  readonly #now: () => number;
  #next = 0;
  #loaded = false;

  constructor(onLoad: () => void = setDefaultTierUp, now: () => number = () => performance.now()) {
    this.#onLoad = onLoad;
    this.#now = now;
  }

  /** Whether the load was seen (and `onLoad` ran). */
  get loaded(): boolean {
    return this.#loaded;
  }

  call(): void {
    if (this.#loaded) return;
    const now = this.#now();
    this.#stamps[this.#next] = now;
    this.#next = (this.#next + 1) % LOAD_CALLS;
    // The oldest of the last LOAD_CALLS calls (this one included): within the window, all came in it.
    const oldest = this.#stamps[this.#next] as number;
    if (now - oldest > LOAD_WINDOW_MS) return;
    this.#loaded = true;
    this.#onLoad();
  }
}

function setDefaultTierUp(): void {
  for (const flag of defaultTierUpFlags()) setFlagsFromString(flag);
}

/** Whether a server raises V8's tier-up thresholds for itself (`COLONY_MCP_TIER_UP` not `default`). */
export function leanTierUp(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.COLONY_MCP_TIER_UP !== 'default';
}

/** The V8 flags a server sets for itself (for a bench that runs code as colony-mcp does). */
export function leanV8Flags(env: NodeJS.ProcessEnv = process.env): string[] {
  return [
    ...(env.COLONY_MCP_YOUNG_GROWTH !== 'default' ? ['--semi-space-growth-factor=1'] : []),
    ...(leanTierUp(env) ? tierUpFlags() : []),
  ];
}

export function leanV8(env: NodeJS.ProcessEnv = process.env): void {
  for (const flag of leanV8Flags(env)) setFlagsFromString(flag);
}
