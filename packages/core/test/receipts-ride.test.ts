/**
 * A receipt riding in a write that is still open is written by that write alone: the
 * flush timer firing meanwhile leaves it (a PostgreSQL write spans many round trips,
 * so this overlap is common there), and a write that rolls back hands it back to be
 * written later, once.
 */
import { listReceipts, openStore, type Store } from '@swarm/storage';
import type { CallReceipt } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLUSH_AFTER_MS, ReceiptQueue } from '../src/_receipts';

const counter = { count: (t: string) => t.length, warning: undefined, exact: () => false, ready: () => true };
const receipt = (operation: string): CallReceipt => ({
  ts: 1,
  operation,
  sessionId: null,
  durationMs: 1,
  inputText: '{}',
  outputText: '{"ok":true}',
  ok: true,
  errorCode: null,
  errorMessage: null,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let store: Store;
afterEach(() => store?.close());

/** A queue on a fresh store with `first` pushed and counted. */
async function queueWith(first: string): Promise<ReceiptQueue> {
  store = openStore({ path: ':memory:' });
  const queue = new ReceiptQueue(store, counter, () => undefined);
  queue.push(receipt(first));
  await sleep(20); // counted (on this thread: no worker)
  return queue;
}

describe('a receipt riding in an open write', () => {
  it('is written once when the flush timer fires while that write is still open', async () => {
    const queue = await queueWith('task_post');
    await store.write(() => sleep(FLUSH_AFTER_MS * 2));
    await queue.flush(true);
    expect((await listReceipts(store, 0)).map((r) => r.operation)).toEqual(['task_post']);
  });

  it('is written once, later, when the write it rode in rolls back', async () => {
    const queue = await queueWith('task_claim_file');
    const refused = store.write(async () => {
      await sleep(FLUSH_AFTER_MS * 2);
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await listReceipts(store, 0)).toEqual([]);
    await queue.flush(true);
    expect((await listReceipts(store, 0)).map((r) => r.operation)).toEqual(['task_claim_file']);
  });
});

describe('the flush timer', () => {
  // A fake clock (timers and performance.now): what fires when does not depend on the machine's load.
  const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const written = async () => (await listReceipts(store, 0)).map((r) => r.operation);

  it('writes a receipt no write carries FLUSH_AFTER_MS after it was buffered', async () => {
    store = openStore({ path: ':memory:' });
    const queue = new ReceiptQueue(store, counter, () => undefined);
    queue.push(receipt('search'));
    await advance(FLUSH_AFTER_MS - 1);
    expect(await written()).toEqual([]);
    await advance(2);
    expect(await written()).toEqual(['search']);
  });

  it('left armed by receipts a write carried, writes a later one at its own time', async () => {
    store = openStore({ path: ':memory:' });
    const queue = new ReceiptQueue(store, counter, () => undefined);
    queue.push(receipt('task_post'));
    await advance(10); // counted (on this thread: no worker)
    // The first receipt rides in a write: the timer it armed stays armed.
    await store.write(() => undefined);
    expect(await written()).toEqual(['task_post']);
    await advance(FLUSH_AFTER_MS / 2);
    queue.push(receipt('search'));
    // The old timer fires FLUSH_AFTER_MS after the first receipt: too early for this one.
    await advance(FLUSH_AFTER_MS - 2);
    expect(await written()).toEqual(['task_post']);
    await advance(4);
    expect(await written()).toEqual(['task_post', 'search']);
  });
});
