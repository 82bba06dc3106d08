import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connectServer, countTokens, DIST, details, HOME, log, row, TMP } from '../lib/setup.mjs';
import { ROUND_BUDGET, runSearch10, runStandardRound, SEARCH_10_BUDGET, seedSearchNotes } from '../lib/token-round.mjs';
import { fmtRate, RawRpc, spawnTracked, stopChild } from '../lib/util.mjs';
import { DB } from './inserts.mjs';

// ---------------------------------------------------------------- 6. tools/list size

export async function benchToolsList() {
  log('[6/6] tools/list payload per toolset');
  details.tools_list = {};
  for (const toolset of ['core', 'all', 'framework']) {
    const child = spawnTracked(process.execPath, [DIST.mcpMain, '--db', DB, '--home', HOME, '--toolset', toolset]);
    try {
      const rpc = new RawRpc(child);
      await rpc.initialize();
      const { tools } = await rpc.request('tools/list', {});
      const json = JSON.stringify(tools);
      const entry = {
        tools: tools.length,
        tokens: countTokens(json),
        bytes: Buffer.byteLength(json),
        names: tools.map((t) => t.name),
      };
      details.tools_list[toolset] = entry;
      row(
        `tools/list --toolset ${toolset}`,
        `${entry.tools} tools, ${fmtRate(entry.tokens)} tokens (${fmtRate(entry.bytes)} B)`,
        null,
        null,
      );
    } finally {
      await stopChild(child);
    }
  }
  await benchTokenGoals();
}

// ---------------------------------------------------------------- 6b. answer tokens (issue 17)

/**
 * The answers' side of the token goals, on a fresh store with two server processes
 * (claude's and codex's): a 10-hit search and the standard two-agent round, counted as
 * apps/mcp-server/test/token-budget.test.ts counts them (bench/lib/token-round.mjs).
 */
async function benchTokenGoals() {
  log('[6b] answer tokens: a 10-hit search and the standard two-agent round');
  const db = join(TMP, 'token-round.db');
  const repoRoot = join(TMP, 'token-round-repo');
  mkdirSync(repoRoot, { recursive: true });
  // task_plan_publish writes the plan's CHANGE.md under repo_root: allow it.
  const flags = ['--root', repoRoot];
  const [claude, codex] = await Promise.all([connectServer(db, undefined, flags), connectServer(db, undefined, flags)]);
  const caller = (server) => async (tool, args) => {
    const result = await server.call(tool, args);
    const text = result.content?.[0]?.text ?? '';
    if (result.isError) throw new Error(`${tool} failed: ${text}`);
    return text;
  };
  try {
    await seedSearchNotes({ call: caller(claude), repoRoot });
    const search = await runSearch10({ call: caller(claude), countTokens });
    const round = await runStandardRound({ claude: caller(claude), codex: caller(codex), repoRoot, countTokens });
    details.answer_tokens = { search_10_hits: search.tokens, round: round.total, round_steps: round.steps };
    row(
      'search, 10 hits (cl100k tokens)',
      `${search.tokens} tokens (${search.hits.length} hits)`,
      `<= ${SEARCH_10_BUDGET}`,
      search.hits.length === 10 && search.tokens <= SEARCH_10_BUDGET,
    );
    row(
      `standard two-agent round, ${round.steps.length} answers (cl100k tokens)`,
      `${round.total} tokens`,
      `<= ${ROUND_BUDGET}`,
      round.total <= ROUND_BUDGET,
    );
  } finally {
    await Promise.all([claude.close(), codex.close()]);
  }
}
