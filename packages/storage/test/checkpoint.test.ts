/**
 * checkpoint(): PASSIVE copies the WAL back into the database file of a real SQLite
 * store and answers SQLite's frame counts; TRUNCATE empties the WAL file; a store
 * without a WAL answers -1; an unknown mode is refused before any SQL. setAutoCheckpoint
 * moves the WAL size at which a commit checkpoints by itself (0: never).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  autoCheckpointPages,
  type CheckpointMode,
  checkpoint,
  DEFAULT_AUTO_CHECKPOINT_PAGES,
  openStore,
  setAutoCheckpoint,
  upsertSession,
} from '../src/index';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'storage-checkpoint-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('PASSIVE checkpoints every WAL frame of a real file; TRUNCATE empties the WAL', async () => {
  const path = join(dir, 'colony.db');
  const store = openStore({ path });
  try {
    for (let i = 0; i < 50; i++) await store.write(() => upsertSession(store, { id: `s-${i}`, ide: 'test' }, 1000 + i));
    const wal = `${path}-wal`;
    expect(existsSync(wal) && statSync(wal).size).toBeGreaterThan(0);
    const passive = checkpoint(store, 'PASSIVE');
    expect(passive.busy).toBe(0);
    expect(passive.log).toBeGreaterThan(0);
    expect(passive.checkpointed).toBe(passive.log);
    expect(checkpoint(store)).toEqual({ busy: 0, log: passive.log, checkpointed: passive.log });
    expect(checkpoint(store, 'TRUNCATE')).toEqual({ busy: 0, log: 0, checkpointed: 0 });
    expect(statSync(wal).size).toBe(0);
  } finally {
    store.close();
  }
});

it('answers -1 frames without a WAL and refuses an unknown mode', () => {
  const store = openStore({ path: ':memory:' });
  try {
    expect(checkpoint(store)).toEqual({ busy: 0, log: -1, checkpointed: -1 });
    expect(() => checkpoint(store, 'NOW); DROP TABLE sessions; --' as CheckpointMode)).toThrow(
      /unknown checkpoint mode/,
    );
  } finally {
    store.close();
  }
  expect(() => checkpoint(store)).toThrow(/closed/);
});

it('setAutoCheckpoint: commits checkpoint by themselves past the threshold, never at 0', async () => {
  const path = join(dir, 'colony.db');
  const store = openStore({ path });
  const writes = async (from: number) => {
    for (let i = from; i < from + 40; i++)
      await store.write(() => upsertSession(store, { id: `s-${i}`, ide: 'test' }, i));
  };
  try {
    expect(autoCheckpointPages(store)).toBe(DEFAULT_AUTO_CHECKPOINT_PAGES);
    setAutoCheckpoint(store, 0);
    expect(autoCheckpointPages(store)).toBe(0);
    checkpoint(store, 'TRUNCATE');
    await writes(0);
    // Nothing checkpointed: every commit's frames are still in the WAL (one or more each).
    expect(checkpoint(store).log).toBeGreaterThanOrEqual(40);
    setAutoCheckpoint(store, 2);
    checkpoint(store, 'TRUNCATE');
    await writes(100);
    // Each commit past two pages checkpointed, and the next writer restarted the WAL.
    expect(checkpoint(store).log).toBeLessThan(10);
    expect(() => setAutoCheckpoint(store, -1)).toThrow(/pages >= 0/);
    expect(() => setAutoCheckpoint(store, 1.5)).toThrow(/pages >= 0/);
  } finally {
    store.close();
  }
});
