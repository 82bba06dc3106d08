/**
 * Proposals, their reinforcements and spec-failure counters on PostgreSQL: every twin
 * gives the SQLite function's answer (a fresh SQLite file and a fresh PostgreSQL
 * database, the same calls), and the one-winner paths hold across stores: a proposal is
 * promoted once, and concurrent reports of one failure signature count exactly.
 */
import { expect, it } from 'vitest';
import { pgQueries } from '../src/pg/index';
import * as proposalReinforcements from '../src/proposal-reinforcements';
import * as proposals from '../src/proposals';
import * as sessions from '../src/sessions';
import * as specFailures from '../src/spec-failures';
import * as tasks from '../src/tasks';
import { parity } from './_pg-parity';
import { describePgStore } from './_pg-store';

const sqlite = { ...sessions, ...tasks, ...proposals, ...proposalReinforcements, ...specFailures };
const T0 = 1_700_000_000_000;
const report = (signatureHash: string, summary = 'expected 2, got 3') => ({
  repoRoot: '/r',
  signatureHash,
  testId: 'parser.test.ts > tabs',
  summary,
});

describePgStore('proposals, reinforcements and spec failures on PostgreSQL', (ctx) => {
  it('answers as SQLite does: insert, get, list by status and time, promote once, reinforce, count failures', async () => {
    const both = await parity(ctx, sqlite);
    for (const id of ['a', 'b']) await both.call('upsertSession', { id }, T0);
    const { task } = (await both.call('ensureTask', { repoRoot: '/r', branch: 'main' }, T0)) as {
      task: { id: number };
    };
    const proposal = (n: number) => ({
      repoRoot: '/r',
      branch: 'main',
      summary: `idea ${n}`,
      rationale: 'because',
      touchesFiles: [`src/${n}.ts`, 'docs/x.md'],
      proposedBySession: 'a',
      observationId: n,
    });
    const first = (await both.call('insertProposal', proposal(1), T0 + 1)) as { id: number; touchesFiles: string[] };
    expect(first.touchesFiles).toEqual(['src/1.ts', 'docs/x.md']);
    await both.call('insertProposal', proposal(2), T0 + 2);
    await both.call('getProposal', first.id);
    expect(await both.call('getProposal', 999)).toBeUndefined();
    const pending = { repoRoot: '/r', branch: 'main', status: 'pending' as const };
    expect(await both.call('listProposals', pending)).toHaveLength(2);
    expect(await both.call('listProposals', { ...pending, branch: 'other' })).toEqual([]);
    expect(await both.call('promoteProposal', first.id, task.id, T0 + 5)).toBe(true);
    expect(await both.call('promoteProposal', first.id, task.id, T0 + 6)).toBe(false);
    expect(await both.call('promoteProposal', 999, task.id, T0 + 6)).toBe(false);
    const promoted = { ...pending, status: 'promoted' as const };
    expect(await both.call('listProposals', promoted)).toHaveLength(1);
    expect(await both.call('listProposals', { ...promoted, promotedSince: T0 + 5 })).toHaveLength(1);
    expect(await both.call('listProposals', { ...promoted, promotedSince: T0 + 6 })).toEqual([]);

    const support = (sessionId: string, ts: number) => ({
      proposalId: first.id,
      sessionId,
      agentType: 'claude',
      kind: 'explicit',
      weight: 1,
      ts,
      observationId: 7,
    });
    await both.call('insertReinforcement', support('b', T0 + 9));
    await both.call('insertReinforcement', support('a', T0 + 8));
    await both.call('insertReinforcement', support('b', T0 + 8));
    const listed = (await both.call('listReinforcements', [first.id, 999])) as Array<{ sessionId: string; ts: number }>;
    expect(listed.map((r) => [r.sessionId, r.ts])).toEqual([
      ['a', T0 + 8],
      ['b', T0 + 8],
      ['b', T0 + 9],
    ]);
    expect(await both.call('listReinforcements', [])).toEqual([]);

    expect(await both.call('countSpecFailure', report('sig-1'), T0)).toMatchObject({ count: 1, firstSeenAt: T0 });
    expect(await both.call('countSpecFailure', report('sig-1', 'now 4'), T0 + 1)).toMatchObject({
      count: 2,
      firstSeenAt: T0,
      lastSeenAt: T0 + 1,
      summary: 'now 4',
    });
    await both.call('setSpecFailureProposal', '/r', 'sig-1', first.id);
    await both.call('setSpecFailureProposal', '/r', 'no-such-signature', first.id);
    expect(await both.call('countSpecFailure', report('sig-1'), T0 + 2)).toMatchObject({
      count: 3,
      proposalId: first.id,
    });
    await both.fails('insertReinforcement', { ...support('nobody', T0), sessionId: 'nobody' });
  });

  it('promotes a proposal once and counts every report of one signature across stores at once', async () => {
    const url = await ctx.database();
    const stores = await Promise.all([1, 2, 3, 4].map(() => ctx.open({ url })));
    const [first] = stores as [(typeof stores)[number]];
    await pgQueries.upsertSession(first, { id: 'a' }, T0);
    const { task } = await pgQueries.ensureTask(first, { repoRoot: '/r', branch: 'main' }, T0);
    const made = await pgQueries.insertProposal(
      first,
      {
        repoRoot: '/r',
        branch: 'main',
        summary: 'one',
        rationale: 'r',
        touchesFiles: [],
        proposedBySession: 'a',
        observationId: 1,
      },
      T0,
    );
    const won = await Promise.all(stores.map((s, i) => pgQueries.promoteProposal(s, made.id, task.id, T0 + i)));
    expect(won.filter(Boolean)).toHaveLength(1);
    await Promise.all(
      stores.flatMap((s) => [1, 2, 3].map((n) => s.write(() => pgQueries.countSpecFailure(s, report('race'), T0 + n)))),
    );
    const after = await pgQueries.countSpecFailure(first, report('race'), T0 + 9);
    expect(after.count).toBe(13);
  });
});
