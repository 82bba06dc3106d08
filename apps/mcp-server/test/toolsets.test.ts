/**
 * Loading tools costs every agent context on every turn, so tools/list has a token
 * budget per toolset. The budgets are pinned from what was measured; growing past one
 * fails here. Final ceilings once the whole contract exists: all <= 6,000, core <= 2,500.
 */
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tempDir } from './_harness';

/** tools/list tokens (cl100k_base) as measured, plus a little headroom. */
export const TOOLS_LIST_BUDGET = { core: 1_740, all: 4_980 } as const;
const CEILING = { core: 2_500, all: 6_000 } as const;

describe('toolsets', () => {
  let core: Server;
  let all: Server;

  beforeAll(async () => {
    const dir = tempDir();
    [core, all] = await Promise.all([
      startServer({ db: join(dir, 'c.db'), home: dir, toolset: 'core' }),
      startServer({ db: join(dir, 'a.db'), home: dir }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([core?.close(), all?.close()]);
  });

  it('keeps each tools/list within its token budget', async () => {
    for (const [name, server] of [
      ['core', core],
      ['all', all],
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
    const outside = allNames.find((n) => !coreNames.includes(n))!;
    const refused = await core.call(outside, {});
    expect(refused.isError).toBe(true);
    expect(refused.payload.code).toBe('UNKNOWN_TOOL');
  });
});
