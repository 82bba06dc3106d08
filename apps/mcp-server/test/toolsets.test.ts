/**
 * Loading tools costs every agent context on every turn, so tools/list has a token
 * budget per toolset. The budgets are pinned from what was measured; growing past one
 * fails here. Final ceilings once the whole contract exists: all <= 6,000, core <= 2,500.
 * The framework toolset (seeds 000/001) is served apart and never grows `all`; seed 001
 * fixes its seven schemas word for word (about 1,000 of the framework's tokens).
 */
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tempDir } from './_harness';

/** tools/list tokens (cl100k_base) as measured, plus a little headroom. */
export const TOOLS_LIST_BUDGET = { core: 2_063, all: 5_813, framework: 2_150 } as const;
const CEILING = { core: 2_500, all: 6_000, framework: 3_000 } as const;

describe('toolsets', () => {
  let core: Server;
  let all: Server;
  let framework: Server;

  beforeAll(async () => {
    const dir = tempDir();
    [core, all, framework] = await Promise.all([
      startServer({ db: join(dir, 'c.db'), home: dir, toolset: 'core' }),
      startServer({ db: join(dir, 'a.db'), home: dir }),
      startServer({ db: join(dir, 'f.db'), home: dir, toolset: 'framework' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([core?.close(), all?.close(), framework?.close()]);
  });

  it('keeps each tools/list within its token budget', async () => {
    for (const [name, server] of [
      ['core', core],
      ['all', all],
      ['framework', framework],
    ] as const) {
      const { tools } = await server.client.listTools();
      const tokens = countTokens(JSON.stringify(tools));
      expect(tokens, `${name} toolset: ${tokens} tokens`).toBeLessThanOrEqual(TOOLS_LIST_BUDGET[name]);
      expect(TOOLS_LIST_BUDGET[name]).toBeLessThanOrEqual(CEILING[name]);
    }
  });

  it('serves a core toolset that is a strict subset of all, and refuses tools outside it', async () => {
    const coreNames = (await core.client.listTools()).tools.map((t) => t.name);
    const allNames = (await all.client.listTools()).tools.map((t) => t.name);
    expect(coreNames.length).toBeLessThan(allNames.length);
    for (const name of coreNames) expect(allNames).toContain(name);
    expect(coreNames).toEqual(
      expect.arrayContaining(['search', 'get_observations', 'task_thread', 'task_post', 'task_note_working']),
    );
    expect(coreNames).toEqual(
      expect.arrayContaining(['task_claim_file', 'task_hand_off', 'task_accept_handoff', 'task_decline_handoff']),
    );
    expect(coreNames).toEqual(expect.arrayContaining(['task_plan_claim_subtask', 'task_plan_complete_subtask']));
    expect(coreNames).toEqual(expect.arrayContaining(['hivemind_context', 'startup_panel']));
    expect(coreNames).toContain('attention_inbox');
    const outside = allNames.find((n) => !coreNames.includes(n))!;
    const refused = await core.call(outside, {});
    expect(refused.isError).toBe(true);
    expect(refused.payload.code).toBe('UNKNOWN_TOOL');
  });

  it('serves the framework tools apart from the contract, each refused by the other', async () => {
    const frameworkNames = (await framework.client.listTools()).tools.map((t) => t.name);
    const allNames = (await all.client.listTools()).tools.map((t) => t.name);
    expect(frameworkNames).toEqual(expect.arrayContaining(['fs_list', 'ctx_put', 'coord_next', 'arbiter_decide']));
    for (const name of frameworkNames) expect(allNames).not.toContain(name);
    expect((await all.call('fs_list', {})).payload.code).toBe('UNKNOWN_TOOL');
    expect((await framework.call('task_list', {})).payload.code).toBe('UNKNOWN_TOOL');
  });
});
