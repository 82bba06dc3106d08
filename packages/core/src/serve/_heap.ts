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
 * - Functions must run TIER_UP_FACTOR times longer before Turbofan optimizes them
 *   (`--interrupt-budget`), small ones included (`--max-bytecode-size-for-early-opt=0`:
 *   no optimizing a small function on its first tick). Loading the modules of the first
 *   call (tool schemas, module paths) made a handful of functions hot enough to be
 *   optimized once, which cost ~5 MiB of RSS for good: the optimizing compiler's pages of
 *   the node binary and its memory. Code that stays hot under load is still optimized,
 *   a little later. `COLONY_MCP_TIER_UP=default` leaves V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's default interrupt budget (66 KiB of bytecode, Node 20), times this, before a function is optimized. */
export const TIER_UP_FACTOR = 4;
const DEFAULT_INTERRUPT_BUDGET = 66 * 1024;

export function leanV8(env: NodeJS.ProcessEnv = process.env): void {
  if (env.COLONY_MCP_YOUNG_GROWTH !== 'default') setFlagsFromString('--semi-space-growth-factor=1');
  if (env.COLONY_MCP_TIER_UP !== 'default') {
    setFlagsFromString(`--interrupt-budget=${DEFAULT_INTERRUPT_BUDGET * TIER_UP_FACTOR}`);
    setFlagsFromString('--max-bytecode-size-for-early-opt=0');
  }
}
