/**
 * WAL checkpoints: copy the write-ahead log back into the database file so the WAL
 * stops growing under a long-lived writer (the swarm session runner runs one PASSIVE
 * checkpoint a minute). PASSIVE never waits for readers or writers: it copies what
 * it can and reports how far it got.
 */
import { handleOf, type Store } from './_store';

export const CHECKPOINT_MODES = ['PASSIVE', 'FULL', 'RESTART', 'TRUNCATE'] as const;
export type CheckpointMode = (typeof CHECKPOINT_MODES)[number];

/** SQLite's answer: busy 1 when the checkpoint could not finish; log and checkpointed are WAL frames (-1 when not in WAL mode). */
export interface CheckpointResult {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

/** Runs `PRAGMA wal_checkpoint(<mode>)` on the store's connection. */
export function checkpoint(store: Store, mode: CheckpointMode = 'PASSIVE'): CheckpointResult {
  if (!CHECKPOINT_MODES.includes(mode)) throw new Error(`unknown checkpoint mode: ${String(mode)}`);
  const rows = handleOf(store).sqlite.pragma(`wal_checkpoint(${mode})`) as CheckpointResult[];
  const row = rows[0];
  return { busy: row?.busy ?? 0, log: row?.log ?? -1, checkpointed: row?.checkpointed ?? -1 };
}
