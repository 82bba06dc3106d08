import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONFIG, core, DIST, details, HOME, log, ROOT, row, TMP } from '../lib/setup.mjs';
import { fmtMs, fmtRate, spawnTracked, stopChild, summarize, withTimeout } from '../lib/util.mjs';

// ---------------------------------------------------------------- 8. seed-000 shared context

export async function benchSharedContext() {
  log(`[swarm] shared context: ${CONFIG.ctxCalls} ctx_put, then ${CONFIG.ctxCalls} ctx_get (handleToolCall)`);
  const colony = core.openColony({ home: HOME, dbPath: join(TMP, 'ctx.db'), rateLimits: { '*': false } });
  try {
    const finding = (i) => ({
      ok: true,
      task: `task_${i % 200}`,
      data: [`src/module_${i}.ts`, `src/module_${i + 1}.ts`],
      ts: new Date(1_714_000_000_000 + i * 1000).toISOString(),
      agent: 'Gemini',
    });
    const key = (i) => `Gemini.task_${i % 200}`;
    const call = async (name, args) => {
      const out = await colony.handleToolCall(name, args);
      if (!out.ok) throw new Error(`${name} failed: ${out.text}`);
    };
    for (let i = 0; i < 200; i++) await call('ctx_put', { agent: 'Gemini', key: key(i), value: finding(i) });
    for (let i = 0; i < 200; i++) await call('ctx_get', { agent: 'Claude', key: key(i) });
    const put = [];
    for (let i = 0; i < CONFIG.ctxCalls; i++) {
      const t0 = performance.now();
      await call('ctx_put', { agent: 'Gemini', key: key(i), value: finding(i) });
      put.push(performance.now() - t0);
    }
    const get = [];
    for (let i = 0; i < CONFIG.ctxCalls; i++) {
      const t0 = performance.now();
      await call('ctx_get', { agent: 'Claude', key: key(i) });
      get.push(performance.now() - t0);
    }
    const putS = summarize(put);
    const getS = summarize(get);
    details.shared_context = { calls: CONFIG.ctxCalls, keys: 200, ctx_put_ms: putS, ctx_get_ms: getS };
    const p = (s) => `p50 ${fmtMs(s.p50)} / p95 ${fmtMs(s.p95)} / p99 ${fmtMs(s.p99)} ms`;
    row('ctx_put, handleToolCall (library, 1 write txn + receipt)', p(putS), null, null);
    row('ctx_get, handleToolCall (library)', p(getS), null, null);
  } finally {
    colony.close();
  }
}

// ---------------------------------------------------------------- 9. seed-000 work queue, 8 processes

export const QUEUE_CONSUMER = join(ROOT, 'bench/lib/queue-consumer.mjs');

/** Resolves with each line a child prints, until `count` lines came. */
export function readLines(child, count, ms) {
  return withTimeout(
    new Promise((resolve, reject) => {
      const lines = [];
      let buffer = '';
      child.stdout.setEncoding('utf8');
      const onData = (chunk) => {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          lines.push(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          if (lines.length === count) {
            child.stdout.off('data', onData);
            resolve(lines);
            return;
          }
        }
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) => reject(new Error(`queue consumer exited (${code}) early`)));
    }),
    ms,
    'queue consumer',
  );
}

export async function benchWorkQueue(consumers) {
  const n = CONFIG.queueItems;
  log(`[swarm] work queue: ${n} items enqueued, drained by ${consumers} consumer process(es)`);
  const db = join(TMP, `queue-${consumers}.db`);
  const producer = core.openColony({ home: HOME, dbPath: db, rateLimits: { '*': false } });
  let enqueueMs;
  try {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const out = await producer.handleToolCall('coord_enqueue', { agent: 'producer', kind: 'work', payload: { i } });
      if (!out.ok) throw new Error(`coord_enqueue failed: ${out.text}`);
    }
    enqueueMs = performance.now() - t0;
  } finally {
    producer.close();
  }
  const coreUrl = pathToFileURL(DIST.core).href;
  const children = Array.from({ length: consumers }, (_, k) =>
    spawnTracked(process.execPath, [QUEUE_CONSUMER, coreUrl, db, HOME, `consumer-${k}`]),
  );
  let results;
  let drainMs;
  try {
    const ready = children.map((c) => readLines(c, 1, 30_000));
    await Promise.all(ready);
    const finished = children.map((c) => readLines(c, 1, 600_000));
    const t0 = performance.now();
    for (const c of children) c.stdin.write('go\n');
    results = (await Promise.all(finished)).map(([line]) => JSON.parse(line));
    drainMs = performance.now() - t0;
  } finally {
    await Promise.all(children.map((c) => stopChild(c)));
  }
  const done = results.reduce((sum, r) => sum + r.done, 0);
  const check = core.openColony({ home: HOME, dbPath: db, receipts: false, rateLimits: { '*': false } });
  let counts;
  try {
    const out = await check.handleToolCall('coord_status', { agent: 'bench' });
    counts = out.value.counts;
  } finally {
    check.close();
  }
  if (done !== n || counts.done !== n)
    throw new Error(`queue: ${done} completions, ${counts.done} done, expected ${n}`);
  const rate = (n / drainMs) * 1000;
  details[`work_queue_${consumers}`] = {
    items: n,
    consumers,
    enqueue_per_sec: (n / enqueueMs) * 1000,
    drain_ms: drainMs,
    items_per_sec: rate,
    per_consumer: results.map((r) => r.done),
  };
  if (consumers === CONFIG.queueConsumers) {
    row(
      `queue, enqueue (handleToolCall('coord_enqueue'), 1 process)`,
      `${fmtRate((n / enqueueMs) * 1000)} /s`,
      null,
      null,
    );
  }
  row(
    `queue, ${consumers} consumer process${consumers === 1 ? '' : 'es'} (coord_next + coord_complete)`,
    `${fmtRate(rate)} items/s (${fmtRate(n)} in ${(drainMs / 1000).toFixed(1)} s, each once)`,
    null,
    null,
  );
}
