/**
 * The token worker: counts equal the in-thread counter's for every kind of text, answers
 * arrive by event and by settle() alike, and a module that cannot load means no worker
 * (the caller counts in-thread, degrading as usual).
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { type CountJob, createTokenCounter, tokenWorker } from '../src/index';

const TEXTS = [
  '',
  'hello world',
  'The auth middleware rejects expired tokens; see packages/core/src/open-colony.ts:42.',
  'the model printed <|endoftext|> and stopped',
  `before ${'x'.repeat(1000)} after ${'ab1'.repeat(300)}`,
  JSON.stringify([{ id: 99361, snippet: '…busy a profileSelect is base64s to.', score: 0.734 }]),
  'unicode: naïve café — 東京 🚀',
];

describe('tokenWorker', () => {
  it('counts exactly what the in-thread counter counts', () => {
    const worker = tokenWorker();
    expect(worker).toBeDefined();
    const job = worker!.submit(TEXTS, () => {});
    worker!.settle([job], 10_000);
    const counter = createTokenCounter();
    expect(job.counts).toEqual(TEXTS.map((t) => counter.count(t)));
  });

  it('answers through the callback on a later turn of the event loop', async () => {
    const worker = tokenWorker()!;
    const done = await new Promise<CountJob>((resolve) => worker.submit(['one two three'], resolve));
    expect(done.counts).toEqual([3]);
  });

  it('keeps many jobs apart, in any order of settling', () => {
    const worker = tokenWorker()!;
    const jobs = Array.from({ length: 50 }, (_, i) => worker.submit([`note number ${i}`, 'x'.repeat(i)], () => {}));
    worker.settle(jobs.slice(25), 10_000);
    worker.settle(jobs, 10_000);
    const counter = createTokenCounter();
    jobs.forEach((job, i) => {
      expect(job.counts).toEqual([counter.count(`note number ${i}`), counter.count('x'.repeat(i))]);
    });
  });

  it('once stopped answers null at once, and the next one counts again', () => {
    const worker = tokenWorker()!;
    worker.stop();
    const late = worker.submit(['after the stop'], () => {});
    expect(late.counts).toBeNull();
    const next = tokenWorker()!;
    expect(next).not.toBe(worker);
    const job = next.submit(['after the stop'], () => {});
    next.settle([job], 10_000);
    expect(job.counts).toEqual([createTokenCounter().count('after the stop')]);
  });

  it('leaves no answer file behind', () => {
    const worker = tokenWorker()!;
    worker.settle([worker.submit(['x'], () => {})], 10_000);
    worker.stop();
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith(`colony-tokens-${process.pid}-`))).toEqual([]);
  });

  it('is not started for a module that does not resolve', () => {
    expect(tokenWorker('no-such-tokenizer-module-xyz')).toBeUndefined();
  });
});
