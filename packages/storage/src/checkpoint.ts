/**
 * WAL checkpoints: copy the write-ahead log back into the database file so the WAL
 * stops growing under a long-lived writer (the swarm session runner runs one PASSIVE
 * checkpoint a minute). PASSIVE never waits for readers or writers: it copies what
 * it can and reports how far it got.
 *
 * A long-lived server can also move SQLite's own checkpoints off its calls: by default
 * the commit that takes the WAL past 1,000 pages checkpoints (and syncs) on the spot;
 * `setAutoCheckpoint` raises that threshold, so a server that checkpoints while idle
 * only pays for it on the hot path under sustained load (see core serve/idle-checkpoint).
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

/** SQLite's default `wal_autocheckpoint`: the WAL size in pages that makes a commit checkpoint. */
export const DEFAULT_AUTO_CHECKPOINT_PAGES = 1000;

/** Sets `PRAGMA wal_autocheckpoint` on this store's connection (0 turns automatic checkpoints off). */
export function setAutoCheckpoint(store: Store, pages: number): void {
  if (!Number.isInteger(pages) || pages < 0) throw new Error(`wal_autocheckpoint needs pages >= 0, got ${pages}`);
  handleOf(store).sqlite.pragma(`wal_autocheckpoint = ${pages}`);
}

/** The connection's `wal_autocheckpoint` threshold, in pages. */
export function autoCheckpointPages(store: Store): number {
  return handleOf(store).sqlite.pragma('wal_autocheckpoint', { simple: true }) as number;
}
