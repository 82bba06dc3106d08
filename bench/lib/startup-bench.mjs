/**
 * The startup loop's bench (seed 002: hivemind_context -> attention_inbox ->
 * task_ready_for_agent) on the startup store of ./startup-store.mjs:
 *
 *   1. attention_inbox and hivemind_context p50/p95 over MCP stdio, and what the three
 *      answers cost in tokens;
 *   2. cost follows live state, not history: each of the three tools on the fresh store
 *      against the same live state after 5,000 finished tasks (posts, messages,
 *      handoffs, completed plans), calls interleaved so machine load hits both alike;
 *      PASS when the history store's p50 is within 1.3x of the fresh one's. Measured in
 *      the library (handleToolCall, no receipts: the tool's own cost) and over stdio.
 *      task_autopilot_tick, which a loop calls every tick, is timed the same way.
 *
 * `ctx` carries what bench/run.mjs owns: the built core, server spawning, result rows.
 */
import { join } from 'node:path';
import { seedStartupStore, startupCalls } from './startup-store.mjs';

export const HISTORY_RATIO_TARGET = 1.3;

/** What is timed: the three startup calls, then the tick a loop repeats. */
function timedCalls(seed) {
  const tick = { session_id: seed.session_id, agent: seed.agent, repo_root: seed.repoRoot };
  return [...startupCalls(seed), ['task_autopilot_tick', tick]];
}

/** Builds both stores, with vectors filled (as `colony memory index` would), so no server backfills while timed. */
async function buildStores(ctx) {
  const stores = {};
  for (const [name, history] of [
    ['fresh', false],
    ['history', true],
  ]) {
    const t0 = performance.now();
    const dbPath = join(ctx.tmp, `startup-${name}.db`);
    const seed = await seedStartupStore({
      openColony: ctx.core.openColony,
      dbPath,
      home: ctx.home,
      repoRoot: join(ctx.tmp, `startup-${name}-repo`),
      history,
    });
    const colony = ctx.core.openColony({ home: ctx.home, dbPath, clock: { now: () => seed.now }, receipts: false });
    try {
      colony.vectors.backfill();
    } finally {
      colony.close();
    }
    const ms = performance.now() - t0;
    ctx.log(
      `[startup] ${name} store: ${seed.observations} observations, ${seed.tasks} tasks, ${seed.sessions} sessions, built in ${(ms / 1000).toFixed(1)} s`,
    );
    stores[name] = { seed, dbPath, build_ms: ms };
  }
  return stores;
}

/** Interleaved timing of `call(store, tool, args)` on both stores: ms samples per store and tool. */
async function interleaved(stores, rounds, warmup, call) {
  const samples = { fresh: {}, history: {} };
  for (let r = -warmup; r < rounds; r++) {
    for (const name of r % 2 === 0 ? ['fresh', 'history'] : ['history', 'fresh']) {
      for (const [tool, args] of timedCalls(stores[name].seed)) {
        const t0 = performance.now();
        await call(name, tool, args);
        const ms = performance.now() - t0;
        if (r < 0) continue;
        samples[name][tool] ??= [];
        samples[name][tool].push(ms);
      }
    }
  }
  return samples;
}

function ratioRows(ctx, label, samples) {
  const out = {};
  for (const tool of Object.keys(samples.fresh)) {
    const fresh = ctx.summarize(samples.fresh[tool]);
    const history = ctx.summarize(samples.history[tool]);
    const ratio = history.p50 / fresh.p50;
    out[tool] = { fresh, history, ratio };
    ctx.row(
      `${tool} after 5k finished tasks vs fresh (${label})`,
      `p50 ${ctx.fmtMs(history.p50)} vs ${ctx.fmtMs(fresh.p50)} ms: ${ratio.toFixed(2)}x`,
      `<= ${HISTORY_RATIO_TARGET}x`,
      ratio <= HISTORY_RATIO_TARGET,
    );
  }
  return out;
}

export async function benchStartup(ctx) {
  ctx.log('[startup] seeding the startup store, fresh and after history (through tool calls)');
  const stores = await buildStores(ctx);
  const env = (name) => {
    const file = join(ctx.tmp, `startup-${name}.clock`);
    ctx.writeFileSync(file, String(stores[name].seed.now));
    return { COLONY_CLOCK_FILE: file };
  };
  const servers = {
    fresh: await ctx.connectServer(stores.fresh.dbPath, env('fresh')),
    history: await ctx.connectServer(stores.history.dbPath, env('history')),
  };
  const libs = {};
  try {
    // Tokens of the three answers, as the client receives them.
    const tokens = {};
    for (const [tool, args] of startupCalls(stores.fresh.seed)) {
      const out = await servers.fresh.call(tool, args);
      if (out.isError) throw new Error(`${tool} failed: ${out.content[0].text}`);
      tokens[tool] = ctx.countTokens(out.content[0].text);
    }
    const total = Object.values(tokens).reduce((a, b) => a + b, 0);
    ctx.row(
      'startup answers (hivemind_context + attention_inbox + task_ready_for_agent), cl100k tokens',
      `${Object.values(tokens).join(' + ')} = ${total}`,
      '< 2,500',
      total < 2_500,
    );

    ctx.log(`[startup] over MCP stdio: ${ctx.rounds} interleaved rounds of the three calls and a tick on both stores`);
    const stdio = await interleaved(stores, ctx.rounds, ctx.warmup, async (name, tool, args) => {
      const out = await servers[name].call(tool, args);
      if (out.isError) throw new Error(`${tool} failed: ${out.content[0].text}`);
    });
    for (const tool of ['attention_inbox', 'hivemind_context']) {
      const s = ctx.summarize(stdio.fresh[tool]);
      ctx.row(
        `${tool} over MCP stdio, startup store (50 sessions, 5k observations, 20 plans)`,
        `p50 ${ctx.fmtMs(s.p50)} / p95 ${ctx.fmtMs(s.p95)} ms`,
        null,
        null,
      );
    }

    ctx.log(`[startup] in the library: ${ctx.rounds} interleaved rounds on both stores`);
    for (const name of ['fresh', 'history']) {
      const { seed, dbPath } = stores[name];
      libs[name] = ctx.core.openColony({ home: ctx.home, dbPath, clock: { now: () => seed.now }, receipts: false });
    }
    const library = await interleaved(stores, ctx.rounds, ctx.warmup, async (name, tool, args) => {
      const out = await libs[name].handleToolCall(tool, args);
      if (!out.ok) throw new Error(`${tool} failed: ${out.text}`);
    });
    ctx.details.startup = {
      stores: Object.fromEntries(
        Object.entries(stores).map(([k, v]) => [
          k,
          {
            observations: v.seed.observations,
            tasks: v.seed.tasks,
            sessions: v.seed.sessions,
            build_ms: v.build_ms,
          },
        ]),
      ),
      tokens,
      tokens_total: total,
      library: ratioRows(ctx, 'library', library),
      stdio: ratioRows(ctx, 'MCP stdio', stdio),
    };
  } finally {
    for (const colony of Object.values(libs)) colony.close();
    await servers.fresh.close();
    await servers.history.close();
  }
}
