/**
 * The server's quiet-time work runs on one scheduler (serve/idle): each job once its
 * quiet time has passed since the last call began or ended, once per quiet spell,
 * shortest quiet time first; a job with more to do runs again while the quiet lasts; a
 * job that must not overlap a call waits for none to be in flight; a call costs no timer
 * of its own; nothing runs after stop.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type IdleJob, IdleScheduler } from '../src/serve/_idle';

// A fake clock (timers and performance.now): the order of events, not the machine's load, decides.
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);
const schedulers: IdleScheduler[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  for (const idle of schedulers.splice(0)) idle.stop();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function scheduler(): IdleScheduler {
  const idle = new IdleScheduler();
  schedulers.push(idle);
  return idle;
}

/** A job that logs each run as its name; `more` runs answer true first. */
function job(log: string[], name: string, quietMs: number, options: { more?: number; noCallInFlight?: boolean } = {}) {
  let more = options.more ?? 0;
  const stopped: string[] = [];
  const runs: IdleJob = {
    quietMs,
    ...(options.noCallInFlight ? { noCallInFlight: true } : {}),
    run: async () => {
      log.push(name);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return more-- > 0;
    },
    stop: () => stopped.push(name),
  };
  return Object.assign(runs, { stopped });
}

const call = (idle: IdleScheduler) => {
  idle.begin();
  idle.end();
};

it('runs each job once per quiet spell, shortest quiet time first, and none before the first call', async () => {
  const log: string[] = [];
  const idle = scheduler();
  idle.add(job(log, 'late', 60));
  idle.add(job(log, 'early', 20));
  await sleep(100);
  expect(log).toEqual([]);
  call(idle);
  await sleep(40);
  expect(log).toEqual(['early']);
  await sleep(80);
  expect(log).toEqual(['early', 'late']);
  await sleep(100);
  expect(log).toEqual(['early', 'late']);
  call(idle);
  await sleep(120);
  expect(log).toEqual(['early', 'late', 'early', 'late']);
});

it('a call in the quiet time pushes the jobs back', async () => {
  const log: string[] = [];
  const idle = scheduler();
  idle.add(job(log, 'job', 40));
  for (let i = 0; i < 6; i++) {
    call(idle);
    await sleep(15);
  }
  expect(log).toEqual([]);
  await sleep(80);
  expect(log).toEqual(['job']);
});

it('a job with more to do runs again while the quiet lasts', async () => {
  const log: string[] = [];
  const idle = scheduler();
  idle.add(job(log, 'step', 10, { more: 3 }));
  call(idle);
  await sleep(150);
  expect(log).toEqual(['step', 'step', 'step', 'step']);
});

it('a job that must not overlap a call waits until none is in flight; the others do not', async () => {
  const log: string[] = [];
  const idle = scheduler();
  idle.add(job(log, 'gc', 20, { noCallInFlight: true }));
  idle.add(job(log, 'checkpoint', 20));
  call(idle);
  idle.begin(); // a long call: its quiet time counts from when it began
  await sleep(100);
  expect(log).toEqual(['checkpoint']);
  idle.end();
  await sleep(100);
  expect(log).toEqual(['checkpoint', 'gc', 'checkpoint']);
});

it('sets no timer per call: a burst of calls arms one', async () => {
  const log: string[] = [];
  const idle = scheduler();
  idle.add(job(log, 'job', 30));
  const timers = vi.spyOn(globalThis, 'setTimeout');
  for (let i = 0; i < 1_000; i++) call(idle);
  expect(timers).toHaveBeenCalledTimes(1);
  timers.mockRestore();
  await sleep(80);
  expect(log).toEqual(['job']);
});

it('a job that throws is tried after the next call, and the others still run', async () => {
  const log: string[] = [];
  const idle = scheduler();
  idle.add({
    quietMs: 10,
    run: () => {
      log.push('throws');
      throw new Error('boom');
    },
  });
  idle.add(job(log, 'after', 20));
  call(idle);
  await sleep(80);
  expect(log).toEqual(['throws', 'after']);
  call(idle);
  await sleep(80);
  expect(log).toEqual(['throws', 'after', 'throws', 'after']);
});

it('runs nothing after stop, and tells each job to stop', async () => {
  const log: string[] = [];
  const idle = scheduler();
  const one = job(log, 'job', 10);
  idle.add(one);
  call(idle);
  idle.stop();
  expect(one.stopped).toEqual(['job']);
  await sleep(60);
  call(idle);
  await sleep(60);
  expect(log).toEqual([]);
});
