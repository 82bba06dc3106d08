/**
 * Seed-000 tables: the queue's guarded updates and its index use, the shared
 * context's conditional writes, and the one-pending-proposal-per-path constraint.
 */
import { expect, it } from 'vitest';
import { handleOf } from '../src/_store';
import {
  completeQueueItem,
  contextVersion,
  extendQueueLease,
  getContext,
  insertQueueItem,
  insertWriteProposal,
  leaseQueueItem,
  listContextKeys,
  queueCounts,
  setContext,
  setContextIfVersion,
  takeNextQueueItem,
} from '../src/index';
import { describeMatrix } from './_matrix';

describeMatrix('queue_items', ({ open }) => {
  it('hands out oldest first and never an item under a live lease', async () => {
    const store = open();
    for (const kind of ['a', 'b']) insertQueueItem(store, { kind, payload: '{}', enqueuedBy: 'o' }, 0);
    const first = await store.write(() => takeNextQueueItem(store, { agent: 'x', now: 0, leaseUntil: 100 }));
    const second = await store.write(() => takeNextQueueItem(store, { agent: 'y', now: 0, leaseUntil: 100 }));
    expect([first?.id, second?.id]).toEqual([1, 2]);
    expect(takeNextQueueItem(store, { agent: 'z', now: 99, leaseUntil: 200 })).toBeUndefined();
    expect(takeNextQueueItem(store, { agent: 'z', now: 100, leaseUntil: 200 })).toMatchObject({
      id: 1,
      claimedBy: 'z',
      attempts: 2,
    });
    expect(leaseQueueItem(store, 2, { agent: 'z', now: 50, leaseUntil: 300 })).toBeUndefined();
    expect(completeQueueItem(store, 1, 'x', 'null', 150)).toBe(false);
    expect(extendQueueLease(store, 1, 'x', 500)).toBe(false);
    expect(completeQueueItem(store, 1, 'z', '{"ok":true}', 150)).toBe(true);
    expect(queueCounts(store, 150)).toEqual({ queued: 1, claimed: 0, done: 1 });
  });

  it('finds the next open item through the partial index, not a table scan', () => {
    const store = open();
    const plan = handleOf(store)
      .sqlite.prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM queue_items WHERE status != 'done' AND (status = 'queued' OR lease_until <= ?) ORDER BY id LIMIT 1`,
      )
      .all(0) as Array<{ detail: string }>;
    expect(plan.map((r) => r.detail).join('\n')).toMatch(/USING (COVERING )?INDEX queue_items_open_idx/);
  });
});

describeMatrix('context_entries', ({ open }) => {
  it('versions writes and decides conditional writes in one statement', () => {
    const store = open();
    const w = (value: string) => ({ key: 'k', value, agent: 'a', now: 1 });
    expect(setContextIfVersion(store, w('1'), 0)).toBe(1);
    expect(setContextIfVersion(store, w('2'), 0)).toBeUndefined();
    expect(setContextIfVersion(store, w('2'), 1)).toBe(2);
    expect(setContext(store, w('3'))).toBe(3);
    expect(getContext(store, 'k')).toMatchObject({ value: '3', version: 3, updatedBy: 'a' });
    expect(contextVersion(store, 'absent')).toBe(0);
    setContext(store, { key: 'k_2', value: '0', agent: 'a', now: 1 });
    expect(listContextKeys(store, 'k_', 10)).toEqual(['k_2']);
  });
});

describeMatrix('write_proposals', ({ open }) => {
  it('holds one pending proposal per (repo_root, path)', () => {
    const store = open();
    const proposal = { repoRoot: '/r', path: 'a.md', content: 'x', createDirs: true, agent: 'a', observationId: 1 };
    insertWriteProposal(store, proposal, 0);
    expect(() => insertWriteProposal(store, proposal, 0)).toThrow(/UNIQUE/);
    insertWriteProposal(store, { ...proposal, repoRoot: '/other' }, 0);
  });
});
