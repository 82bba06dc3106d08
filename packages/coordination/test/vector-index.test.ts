/**
 * The vector backfill: it embeds exactly the rows without a vector for the current
 * embedder, in bounded steps, is safe to repeat, keeps per-task sums, and turns vectors
 * off with one warning when the embedder cannot load or throws.
 */
import { countVectors, insertObservations, taskVectorSums } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Embedder, hashingEmbedder, VectorIndex } from '../src/index';
import { createFixture, type Fixture, mainThread } from './_fixture';

let fx: Fixture;
let taskId: number;

beforeEach(async () => {
  fx = createFixture();
  taskId = await mainThread(fx, fx.repo('repo'));
});
afterEach(() => fx.close());

function write(count: number, from = 0, task: number | null = taskId): Promise<number[]> {
  return insertObservations(
    fx.store,
    Array.from({ length: count }, (_, i) => ({
      sessionId: 'claude-1',
      taskId: task,
      kind: 'note',
      content: `note ${from + i} about stale claims`,
      ts: fx.clock.now(),
      tokenCount: 5,
    })),
  );
}

/** Counts the texts it embeds; optionally fails on a call. */
function countingEmbedder(failOnCall?: number): Embedder & { calls: number; texts: number } {
  const inner = hashingEmbedder({ dims: 32 });
  const e = {
    id: 'counting-32',
    dims: 32,
    calls: 0,
    texts: 0,
    embed(texts: readonly string[]) {
      e.calls++;
      if (e.calls === failOnCall) throw new Error('model crashed');
      e.texts += texts.length;
      return inner.embed(texts);
    },
  };
  return e;
}

describe('VectorIndex backfill', () => {
  it('embeds every row once and writes nothing on a second run', async () => {
    await write(150);
    const total = fx.observations();
    const first = await fx.index.backfill();
    expect(first.embedded).toBe(total);
    expect(first.vectors).toBe(total);
    expect(first.embedder_id).toBe('hash-v1-256');
    const again = await fx.index.backfill();
    expect(again.embedded).toBe(0);
    expect(countVectors(fx.store, 'hash-v1-256')).toBe(total);
  });

  it('fills exactly the rows that are missing, and only those are embedded', async () => {
    const embedder = countingEmbedder();
    const index = new VectorIndex(fx.store, { embedder });
    await write(40);
    await index.backfill();
    const before = embedder.texts;
    await write(7, 40);
    const result = await index.backfill();
    expect(result.embedded).toBe(7);
    expect(embedder.texts - before).toBe(7);
    expect(result.vectors).toBe(fx.observations());
  });

  it('re-embeds every row when the embedder changes, and keeps task sums per embedder', async () => {
    await write(10);
    await fx.index.backfill();
    const other = new VectorIndex(fx.store, { embedder: countingEmbedder() });
    expect((await other.status()).vectors).toBe(0);
    expect((await other.backfill()).embedded).toBe(fx.observations());
    expect(countVectors(fx.store, 'hash-v1-256')).toBe(0);
    expect(taskVectorSums(fx.store, 'counting-32')).toHaveLength(1);
    expect(taskVectorSums(fx.store, 'hash-v1-256')).toEqual([]);
    expect((await fx.index.backfill()).embedded).toBe(fx.observations());
    // Back to the first embedder: its sums are rebuilt, not added to stale ones.
    expect(taskVectorSums(fx.store, 'hash-v1-256')[0]!.count).toBe(fx.observations()); // every row is on the task
  });

  it('works in bounded steps: a batch per step, and a step past an indexed window moves on', async () => {
    await write(10);
    const index = new VectorIndex(fx.store, { embedder: countingEmbedder() });
    const first = await index.step(4, 1_000);
    expect(first).toEqual({ embedded: 4, done: false });
    let steps = 1;
    while (!(await index.step(4, 1_000)).done) steps++;
    expect(steps).toBeGreaterThanOrEqual(2);
    expect((await index.status()).vectors).toBe(fx.observations());
    expect(await index.step(4, 1_000)).toEqual({ embedded: 0, done: true });
  });

  it('keeps per-task sums of the vectors it writes (untasked rows have none)', async () => {
    await write(6);
    await write(3, 6, null);
    const onTask = fx.observations() - 3; // the six notes and what task_thread wrote
    await fx.index.backfill();
    const sums = taskVectorSums(fx.store, 'hash-v1-256');
    expect(sums).toHaveLength(1);
    expect(sums[0]).toMatchObject({ taskId, count: onTask });
  });

  it('turns vectors off with one warning when the embedder throws, and never throws itself', async () => {
    await write(5);
    const warnings: string[] = [];
    const index = new VectorIndex(fx.store, { embedder: countingEmbedder(1), onWarning: (m) => warnings.push(m) });
    expect((await index.backfill()).embedded).toBe(0);
    expect(index.embedQuery('stale claims')).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/counting-32.*model crashed.*BM25/);
    expect(index.disabledReason()).toMatch(/model crashed/);
  });

  it('turns vectors off when the embedder cannot load', async () => {
    const warnings: string[] = [];
    const index = new VectorIndex(fx.store, {
      embedder: () => {
        throw new Error('weights not found');
      },
      onWarning: (m) => warnings.push(m),
    });
    expect(index.embedQuery('x')).toBeNull();
    expect(await index.status()).toMatchObject({ embedder_id: null, vectors: 0 });
    expect(warnings[0]).toMatch(/cannot load \(weights not found\)/);
  });

  it('refuses vectors of the wrong size as a failure', async () => {
    const warnings: string[] = [];
    const index = new VectorIndex(fx.store, {
      embedder: { id: 'bad', dims: 8, embed: (texts) => texts.map(() => new Float32Array(4)) },
      onWarning: (m) => warnings.push(m),
    });
    await write(2);
    expect((await index.backfill()).embedded).toBe(0);
    expect(warnings[0]).toMatch(/8 dims/);
  });
});
