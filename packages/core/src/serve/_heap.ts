/**
 * @module serve/heap
 * A stdio MCP server is one IDE session's companion: it answers a call now and then and
 * idles in between, for hours. V8 grows the young generation (where short-lived objects
 * are made) from 1 MiB to 8 MiB per semi-space while modules load on the first tool call
 * and never gives it back: 14 MiB of an idle server's RSS were an empty young
 * generation. This keeps it at its initial size (`--semi-space-growth-factor=1`, set
 * by the server itself at start: nothing for the user to pass). The cost is more
 * frequent young collections under load (measured in docs/benchmarks.md). V8 reads
 * the factor each time it would grow the space, so setting it at run time takes effect.
 * `COLONY_MCP_YOUNG_GROWTH=default` leaves V8's default.
 */
import { setFlagsFromString } from 'node:v8';

export function leanYoungGeneration(env: NodeJS.ProcessEnv = process.env): void {
  if (env.COLONY_MCP_YOUNG_GROWTH === 'default') return;
  setFlagsFromString('--semi-space-growth-factor=1');
}
