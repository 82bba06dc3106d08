/**
 * runOnceAsync over a real SQLite store: one run per (tool, key) across retries, calls in
 * flight and stores (processes) sharing one file; an error releases the key; a dead
 * reserving pid is taken over; a live one is waited for, bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock } from '@swarm/coordination';
import { findIdempotentResult, openStore, type Store, saveIdempotentResult } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { runOnceAsync } from '../src/_run-once-async';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'colony-run-once-'));
  dirs.push(dir);
  return join(dir, 'colony.db');
}

function store(path: string): Store {
  const s = openStore({ path });
  stores.push(s);
  return s;
}

const clock = manualClock();
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

function counter(answer: unknown, ms = 0) {
  const c = {
    runs: 0,
    fn: async () => {
      c.runs++;
      await delay(ms);
      return answer;
    },
  };
  return c;
}

describe('runOnceAsync', () => {
  it('runs once per key; a retry replays the stored answer; other arguments are IDEMPOTENCY_KEY_REUSED', async () => {
    const s = store(dbPath());
    const c = counter({ ok: 1 });
    expect(await runOnceAsync(s, clock, 't', 'k', 'h1', c.fn)).toEqual({ ok: 1 });
    expect(await runOnceAsync(s, clock, 't', 'k', 'h1', c.fn)).toEqual({ ok: 1 });
    expect(c.runs).toBe(1);
    expect(findIdempotentResult(s, 't', 'k')).toEqual({ argsHash: 'h1', result: { ok: 1 } });
    await expect(runOnceAsync(s, clock, 't', 'k', 'h2', c.fn)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await runOnceAsync(s, clock, 'other', 'k', 'h2', c.fn)).toEqual({ ok: 1 });
    expect(c.runs).toBe(2);
  });

  it('a retry while the first call is in flight awaits the same answer', async () => {
    const s = store(dbPath());
    const c = counter({ n: 1 }, 50);
    const [a, b] = await Promise.all([
      runOnceAsync(s, clock, 't', 'k', 'h', c.fn),
      runOnceAsync(s, clock, 't', 'k', 'h', c.fn),
    ]);
    expect(a).toEqual({ n: 1 });
    expect(b).toBe(a);
    expect(c.runs).toBe(1);
    const busy = runOnceAsync(s, clock, 't', 'k2', 'h', counter(1, 50).fn);
    await expect(runOnceAsync(s, clock, 't', 'k2', 'other', c.fn)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    await busy;
  });

  it('an error releases the key, so a retry runs again', async () => {
    const s = store(dbPath());
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new Error('boom');
    };
    await expect(runOnceAsync(s, clock, 't', 'k', 'h', failing)).rejects.toThrow('boom');
    expect(findIdempotentResult(s, 't', 'k')).toBeUndefined();
    const retry = async () => {
      runs++;
      return 'ok';
    };
    expect(await runOnceAsync(s, clock, 't', 'k', 'h', retry)).toBe('ok');
    expect(runs).toBe(2);
  });

  it('another store (process) on the same file waits for the reserving call and gets its answer', async () => {
    const path = dbPath();
    const [one, two] = [store(path), store(path)];
    const c = counter({ n: 1 }, 200);
    const alive = () => true;
    const [a, b] = await Promise.all([
      runOnceAsync(one, clock, 't', 'k', 'h', c.fn, { pid: 101, isAlive: alive }),
      delay(20).then(() => runOnceAsync(two, clock, 't', 'k', 'h', c.fn, { pid: 202, isAlive: alive, pollMs: 10 })),
    ]);
    expect(c.runs).toBe(1);
    expect(b).toEqual(a);
  });

  it('takes over the reservation of a dead pid, and waits for a live one only until its bound', async () => {
    const s = store(dbPath());
    const pending = { __colony_idempotency_pending__: { pid: 999_999, token: 'x' } };
    saveIdempotentResult(s, 't', 'dead', 'h', pending, 0);
    saveIdempotentResult(s, 't', 'live', 'h', pending, 0);
    const c = counter('ran');
    expect(await runOnceAsync(s, clock, 't', 'dead', 'h', c.fn, { isAlive: () => false })).toBe('ran');
    expect(c.runs).toBe(1);
    await expect(
      runOnceAsync(s, clock, 't', 'live', 'h', c.fn, { isAlive: () => true, waitMs: 50, pollMs: 10 }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(c.runs).toBe(1);
  });
});
