/**
 * Token discipline of the startup loop (seed 002, "Progressive disclosure budget
 * contract"): hivemind_context -> attention_inbox -> task_ready_for_agent, as copy-
 * pasted from the contract, over a real server process on a realistic store (50
 * sessions, 5,000 observations, 20 plans: bench/lib/startup-store.mjs, which `pnpm
 * bench` times too). The three answers, counted with the cl100k tokenizer on the JSON
 * text the client receives, stay under 2,500 tokens together.
 */
import { join } from 'node:path';
import { openColony } from '@swarm/core';
import { countObservations, openStore, type Store } from '@swarm/storage';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Plain JavaScript shared with bench/run.mjs, which times the same store.
import { STARTUP_SIZES, seedStartupStore, startupCalls } from '../../../bench/lib/startup-store.mjs';
import { serverClock } from './_calls';
import { type Server, startServer, tempDir } from './_harness';

/** The whole startup loop's budget, in cl100k tokens. */
const STARTUP_BUDGET = 2_500;

let server: Server;
let store: Store;
// biome-ignore lint/suspicious/noExplicitAny: the seed module is untyped JavaScript
let seed: any;

beforeAll(async () => {
  const dir = tempDir();
  const db = join(dir, 'colony.db');
  const home = join(dir, 'home');
  seed = await seedStartupStore({ openColony, dbPath: db, home, repoRoot: join(dir, 'repo') });
  const clockFile = join(dir, 'clock');
  serverClock(clockFile, seed.now);
  server = await startServer({ db, home, clockFile });
  store = openStore({ path: db });
}, 120_000);

afterAll(async () => {
  await server?.close();
  store?.close();
});

describe('startup token discipline over MCP stdio', () => {
  it('is seeded as specified: 50 sessions, 5,000 observations, 20 plans', () => {
    expect(seed).toMatchObject({
      sessions: STARTUP_SIZES.sessions,
      observations: STARTUP_SIZES.observations,
      plans: STARTUP_SIZES.plans,
    });
  });

  it(`answers the three startup calls in under ${STARTUP_BUDGET} tokens together, changing nothing`, async () => {
    const before = countObservations(store);
    const parts: Record<string, number> = {};
    for (const [tool, args] of startupCalls(seed) as Array<[string, Record<string, unknown>]>) {
      const result = await server.call(tool, args);
      expect(result.isError, result.text).toBe(false);
      parts[tool] = countTokens(result.text);
      // Each answer's own budget tells the truth about its size.
      const estimate = result.payload.budget.estimated_tokens_returned;
      expect(Math.abs(estimate - parts[tool])).toBeLessThanOrEqual(Math.max(5, parts[tool] * 0.02));
    }
    const total = Object.values(parts).reduce((a, b) => a + b, 0);
    const report = Object.entries(parts).map(([tool, n]) => `${tool} ${n}`);
    console.log(`startup tokens: ${report.join(' + ')} = ${total} (budget ${STARTUP_BUDGET})`);
    expect(countObservations(store)).toBe(before);
    expect(total, report.join(', ')).toBeLessThan(STARTUP_BUDGET);
  });
});
