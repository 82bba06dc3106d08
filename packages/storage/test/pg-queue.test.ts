/**
 * The seed-000 work queue and write proposals on PostgreSQL: every twin gives the SQLite
 * function's answer (a fresh SQLite file and a fresh PostgreSQL database, the same
 * calls), and across stores at once: takers get different items, one lease of an item
 * wins, one arbiter decides a proposal, and a second pending proposal for a path fails.
 */
import { expect, it } from 'vitest';
import { pgQueries } from '../src/pg/index';
import * as queueItems from '../src/queue-items';
import * as writeProposals from '../src/write-proposals';
import { parity } from './_pg-parity';
import { describePgStore } from './_pg-store';

const T0 = 1_700_000_000_000;
const entry = (n: number) => ({ kind: 'build', payload: JSON.stringify({ n }), enqueuedBy: 'queen' });
const lease = (agent: string, now: number, ms = 1_000) => ({ agent, now, leaseUntil: now + ms });
const proposal = (path: string, n = 1) => ({
  repoRoot: '/r',
  path,
  content: `export const n = ${n};\n`,
  createDirs: n % 2 === 0,
  agent: 'codex',
  observationId: n,
});

describePgStore('the work queue and write proposals on PostgreSQL', (ctx) => {
  it('answers as SQLite does: take, lease, renew, expire, complete, extend, counts, front', async () => {
    const both = await parity(ctx, queueItems);
    expect(await both.call('queueFront', T0)).toBeUndefined();
    expect(await both.call('takeNextQueueItem', lease('a', T0))).toBeUndefined();
    for (const n of [1, 2, 3]) await both.call('insertQueueItem', entry(n), T0);
    await both.call('getQueueItem', 1);
    expect(await both.call('getQueueItem', 99)).toBeUndefined();
    expect(await both.call('takeNextQueueItem', lease('a', T0))).toMatchObject({ id: 1, attempts: 1 });
    expect(await both.call('leaseQueueItem', 1, lease('b', T0 + 10))).toBeUndefined();
    expect(await both.call('leaseQueueItem', 1, lease('a', T0 + 10))).toMatchObject({ attempts: 1 });
    expect(await both.call('queueCounts', T0 + 10)).toEqual({ queued: 2, claimed: 1, done: 0 });
    expect(await both.call('queueFront', T0 + 10)).toMatchObject({ id: 2 });
    // The lease runs out: another agent takes it over, and its attempts go up.
    expect(await both.call('leaseQueueItem', 1, lease('b', T0 + 5_000))).toMatchObject({
      claimedBy: 'b',
      attempts: 2,
    });
    expect(await both.call('extendQueueLease', 1, 'a', T0 + 9_000)).toBe(false);
    expect(await both.call('extendQueueLease', 1, 'b', T0 + 9_000)).toBe(true);
    expect(await both.call('completeQueueItem', 1, 'a', '{"ok":false}', T0 + 6_000)).toBe(false);
    expect(await both.call('completeQueueItem', 1, 'b', '{"ok":true}', T0 + 6_000)).toBe(true);
    expect(await both.call('leaseQueueItem', 1, lease('b', T0 + 7_000))).toBeUndefined();
    expect(await both.call('queueCounts', T0 + 7_000)).toEqual({ queued: 2, claimed: 0, done: 1 });
    expect(await both.call('takeNextQueueItem', lease('c', T0 + 7_000, 10))).toMatchObject({ id: 2 });
    expect(await both.call('queueCounts', T0 + 7_010)).toEqual({ queued: 2, claimed: 0, done: 1 });
    expect(await both.call('queueFront', T0 + 7_010)).toMatchObject({ id: 2, claimedBy: 'c' });
  });

  it('answers as SQLite does for write proposals: pending per path, decided once, counted', async () => {
    const both = await parity(ctx, writeProposals);
    const first = (await both.call('insertWriteProposal', proposal('src/a.ts', 2), T0)) as { id: number };
    await both.call('insertWriteProposal', proposal('src/b.ts', 3), T0 + 1);
    expect(await both.call('pendingProposalFor', '/r', 'src/a.ts')).toMatchObject({ createDirs: true });
    expect(await both.call('pendingProposalFor', '/r', 'src/c.ts')).toBeUndefined();
    expect(await both.call('listPendingProposals', '/r', 1)).toHaveLength(1);
    expect(await both.call('listPendingProposals', '/other', 10)).toEqual([]);
    const decision = { status: 'rejected', decidedBy: 'arbiter', notes: 'no' };
    expect(await both.call('decideWriteProposal', first.id, decision, T0 + 3)).toBe(true);
    expect(await both.call('decideWriteProposal', first.id, { ...decision, status: 'approved' }, T0 + 4)).toBe(false);
    await both.call('getWriteProposal', first.id);
    expect(await both.call('getWriteProposal', 99)).toBeUndefined();
    expect(await both.call('countWriteProposals')).toBe(2);
    expect(await both.call('countWriteProposals', 'pending')).toBe(1);
    expect(await both.call('countWriteProposals', 'applied')).toBe(0);
    // Decided, the path takes a new pending proposal; a second pending one fails on both
    // (last: a failed insert uses up an id on PostgreSQL, whose sequences are not transactional).
    await both.call('insertWriteProposal', proposal('src/a.ts', 5), T0 + 5);
    await both.fails('insertWriteProposal', proposal('src/a.ts', 4), T0 + 6);
  });

  it('hands four takers four different items, one lease of an item, one decision of a proposal', async () => {
    const url = await ctx.database();
    const stores = await Promise.all([1, 2, 3, 4].map(() => ctx.open({ url })));
    const [first] = stores as [(typeof stores)[number]];
    for (const n of [1, 2, 3, 4, 5]) await pgQueries.insertQueueItem(first, entry(n), T0);
    const taken = await Promise.all(
      stores.map((s, i) => s.write(() => pgQueries.takeNextQueueItem(s, lease(`agent-${i}`, T0)))),
    );
    expect(new Set(taken.map((t) => t?.id)).size).toBe(4);
    const leased = await Promise.all(stores.map((s, i) => pgQueries.leaseQueueItem(s, 5, lease(`agent-${i}`, T0))));
    expect(leased.filter((l) => l !== undefined)).toHaveLength(1);
    const made = await pgQueries.insertWriteProposal(first, proposal('src/race.ts'), T0);
    const decided = await Promise.all(
      stores.map((s, i) =>
        pgQueries.decideWriteProposal(s, made.id, { status: 'approved', decidedBy: `arbiter-${i}` }, T0 + 1),
      ),
    );
    expect(decided.filter(Boolean)).toHaveLength(1);
  });
});
