#!/usr/bin/env node
/**
 * One work-queue consumer process for the queue benchmark: opens colony (the built
 * @swarm/core) on the given database, says `ready`, waits for `go` on stdin, then takes
 * and completes items until the queue is empty, and prints `{ done, ms }` as JSON.
 *
 *   node bench/lib/queue-consumer.mjs <core-dist-url> <db> <home> <agent>
 */
const [coreUrl, dbPath, home, agent] = process.argv.slice(2);
const { openColony } = await import(coreUrl);
const colony = openColony({ home, dbPath, rateLimits: { '*': false } });

process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));

const t0 = performance.now();
let done = 0;
for (;;) {
  const next = await colony.handleToolCall('coord_next', { agent, lease_sec: 60 });
  if (!next.ok) throw new Error(next.text);
  const item = next.value.item;
  if (!item) break;
  const complete = await colony.handleToolCall('coord_complete', { agent, id: item.id, result: { by: agent } });
  if (!complete.ok) throw new Error(complete.text);
  done++;
}
const ms = performance.now() - t0;
colony.close();
process.stdout.write(`${JSON.stringify({ done, ms })}\n`);
