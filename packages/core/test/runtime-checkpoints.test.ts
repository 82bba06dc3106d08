/**
 * The session runner's periodic WAL checkpoint: the unref'd timer runs PASSIVE
 * checkpoints of a real colony store on its interval, logs a failing run and keeps
 * going, and runs no more once stopped; a closed colony answers null.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointResult } from '@swarm/storage';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Colony, manualClock, openColony } from '../src/index.js';
import { startCheckpoints, WAL_CHECKPOINT_SECS } from '../src/runtime/_checkpoints.js';

let dir: string;
let colony: Colony;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'runtime-checkpoints-'));
  colony = openColony({ home: join(dir, 'home'), clock: manualClock(), receipts: false });
});
afterEach(async () => {
  await colony.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitFor = async (check: () => boolean, ms = 5000) => {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error('timed out waiting');
    await sleep(5);
  }
};

it('checkpoints the store every interval, unref-d, and stops on stop', async () => {
  expect(WAL_CHECKPOINT_SECS).toBe(60);
  const repo = join(dir, 'repo');
  const joined = await colony.handleToolCall('task_thread', {
    repo_root: repo,
    branch: 'main',
    session_id: 's-1',
    agent: 'a',
  });
  expect(joined.ok).toBe(true);
  const results: (CheckpointResult | null)[] = [];
  const timer = startCheckpoints(() => results.push(colony.checkpoint('PASSIVE')), { every_ms: 10 });
  try {
    expect(timer.hasRef()).toBe(false);
    await waitFor(() => results.length >= 2);
    expect(results[0]?.busy).toBe(0);
    expect(results[0]?.log).toBeGreaterThan(0);
    expect(results[0]?.checkpointed).toBe(results[0]?.log);
  } finally {
    timer.stop();
  }
  const count = results.length;
  await sleep(60);
  expect(results.length).toBe(count);
  await colony.close();
  expect(colony.checkpoint()).toBeNull();
});

it('a failing checkpoint is logged and the next one still runs', async () => {
  const lines: string[] = [];
  let runs = 0;
  const timer = startCheckpoints(
    () => {
      runs += 1;
      if (runs === 1) throw new Error('database is locked');
    },
    { every_ms: 10, log: (l) => lines.push(l) },
  );
  try {
    await waitFor(() => runs >= 2);
  } finally {
    timer.stop();
  }
  expect(lines).toEqual(['wal checkpoint failed: database is locked']);
});
