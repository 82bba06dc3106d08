/**
 * A stdio server runs one compacting full collection once no call has run for a while
 * (a job of its idle scheduler): never while a call is in flight, once per idle period,
 * not after stop nor above its heap bound, and it really collects (an unreachable
 * object's WeakRef is cleared) without leaving `gc` exposed.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IdleScheduler } from '../src/serve/_idle';
import { IDLE_GC_DELAY_MS, IdleGc, idleGcFrom } from '../src/serve/_idle-gc';

const DELAY = 20;
/** The suite's own heap may be large: these idle collectors compact any. */
const ANY_HEAP = Number.POSITIVE_INFINITY;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A scheduler with one idle collection (its runs counted); `begin`/`end` are a call's. */
function scheduled(maxHeap = ANY_HEAP) {
  const gc = new IdleGc(DELAY, maxHeap);
  const idle = new IdleScheduler();
  idle.add(gc);
  return {
    begin: () => idle.begin(),
    end: () => idle.end(),
    stop: () => idle.stop(),
    get runs() {
      return gc.runs;
    },
  };
}

describe('IdleGc', () => {
  it('collects once after the quiet time that follows a call, and really collects', async () => {
    const idle = scheduled();
    const ref = new WeakRef({ big: new Array(10_000).fill(1) });
    idle.begin();
    idle.end();
    expect(idle.runs).toBe(0);
    await sleep(DELAY * 5);
    expect(idle.runs).toBe(1);
    expect(ref.deref()).toBeUndefined();
    await sleep(DELAY * 3);
    expect(idle.runs).toBe(1);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('waits while a call is in flight, and a call in the quiet time pushes it back', async () => {
    const idle = scheduled();
    idle.begin();
    idle.begin();
    idle.end();
    await sleep(DELAY * 4);
    expect(idle.runs).toBe(0);
    idle.end();
    await sleep(DELAY / 2);
    idle.begin();
    await sleep(DELAY * 4);
    expect(idle.runs).toBe(0);
    idle.end();
    await sleep(DELAY * 5);
    expect(idle.runs).toBe(1);
  });

  it('does nothing after stop', async () => {
    const idle = scheduled();
    idle.begin();
    idle.end();
    idle.stop();
    await sleep(DELAY * 4);
    idle.begin();
    idle.end();
    await sleep(DELAY * 4);
    expect(idle.runs).toBe(0);
  });

  it('leaves a heap above its bound to V8', async () => {
    const idle = scheduled(1);
    idle.begin();
    idle.end();
    await sleep(DELAY * 4);
    expect(idle.runs).toBe(0);
  });

  it('is on by default and off with COLONY_MCP_IDLE_GC=0', () => {
    expect(idleGcFrom({})).toBeInstanceOf(IdleGc);
    expect(idleGcFrom({ COLONY_MCP_IDLE_GC: '0' })).toBeUndefined();
    expect(IDLE_GC_DELAY_MS).toBeLessThan(1500);
  });
});
