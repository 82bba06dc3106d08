/**
 * Token goals of issue 17 over MCP stdio, counted with the cl100k tokenizer on the JSON
 * text the client receives: a `search` answering 10 hits, and the standard two-agent
 * round (bench/lib/token-round.mjs, which `pnpm bench` reports too) summed over every
 * answer, with claude and codex each served by their own server process on one store.
 */
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Plain JavaScript shared with bench/phases/tools-list.mjs, which reports the same figures.
import {
  ROUND_BUDGET,
  runSearch10,
  runStandardRound,
  SEARCH_10_BUDGET,
  seedSearchNotes,
} from '../../../bench/lib/token-round.mjs';
import { serverClock } from './_calls';
import { type Server, startServer, tempDir } from './_harness';

let claude: Server;
let codex: Server;
let repoRoot: string;

/** The answer's text as the client received it; a tool error fails the step. */
const caller = (server: () => Server) => async (tool: string, args: Record<string, unknown>) => {
  const result = await server().call(tool, args);
  if (result.isError) throw new Error(`${tool} failed: ${result.text}`);
  return result.text;
};

beforeAll(async () => {
  const dir = tempDir();
  const db = join(dir, 'colony.db');
  repoRoot = tempDir('colony-round-repo-');
  const clockFile = join(dir, 'clock');
  serverClock(clockFile, Date.UTC(2026, 3, 1, 12));
  [claude, codex] = await Promise.all([
    startServer({ db, home: join(dir, 'home'), clockFile }),
    startServer({ db, home: join(dir, 'home'), clockFile }),
  ]);
  await seedSearchNotes({ call: caller(() => claude), repoRoot });
}, 60_000);

afterAll(async () => {
  await Promise.all([claude?.close(), codex?.close()]);
});

// In this order, as `pnpm bench` runs them: the search first, on the seeded notes alone.
describe('token goals over MCP stdio', () => {
  it(`answers a 10-hit search in at most ${SEARCH_10_BUDGET} tokens, ids ready to hydrate`, async () => {
    const { tokens, hits } = await runSearch10({ call: caller(() => claude), countTokens });
    console.log(`search 10 hits: ${tokens} tokens (budget ${SEARCH_10_BUDGET})`);
    expect(hits).toHaveLength(10);
    for (const hit of hits) expect(hit.id).toEqual(expect.any(Number));
    expect(tokens).toBeLessThanOrEqual(SEARCH_10_BUDGET);
  });

  it(`answers the standard two-agent round in at most ${ROUND_BUDGET} tokens, all answers summed`, async () => {
    const { steps, total } = await runStandardRound({
      claude: caller(() => claude),
      codex: caller(() => codex),
      repoRoot,
      countTokens,
    });
    const report = steps.map((s: { tool: string; tokens: number }) => `${s.tool} ${s.tokens}`).join(', ');
    console.log(`round tokens: ${total} (budget ${ROUND_BUDGET}): ${report}`);
    expect(steps).toHaveLength(21);
    expect(total, report).toBeLessThanOrEqual(ROUND_BUDGET);
  });
});
