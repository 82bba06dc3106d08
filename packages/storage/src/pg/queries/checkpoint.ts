/**
 * @module pg/queries/checkpoint
 * The WAL checkpoint functions of `src/checkpoint.ts` on PostgreSQL, where they have no
 * meaning (the server checkpoints its own WAL): each does nothing and never fails, so a
 * caller's periodic checkpoint is harmless on either store. `checkpoint` answers SQLite's
 * "not in WAL mode" result (`busy` 0, `log` and `checkpointed` -1) after the same mode
 * check; `setAutoCheckpoint` checks its argument as on SQLite and keeps nothing;
 * `autoCheckpointPages` answers 0 (no automatic checkpoint by this store).
 */
import { CHECKPOINT_MODES, type CheckpointMode, type CheckpointResult } from '../../checkpoint';
import type { PgStore } from '../store/pg-store';

/** No checkpoint to run: SQLite's answer for a database not in WAL mode. */
export async function checkpoint(_store: PgStore, mode: CheckpointMode = 'PASSIVE'): Promise<CheckpointResult> {
  if (!CHECKPOINT_MODES.includes(mode)) throw new Error(`unknown checkpoint mode: ${String(mode)}`);
  return { busy: 0, log: -1, checkpointed: -1 };
}

/** Checks `pages` as on SQLite; the server's own checkpoints are not this store's to set. */
export async function setAutoCheckpoint(_store: PgStore, pages: number): Promise<void> {
  if (!Number.isInteger(pages) || pages < 0) throw new Error(`wal_autocheckpoint needs pages >= 0, got ${pages}`);
}

/** 0: this store never checkpoints on a commit. */
export async function autoCheckpointPages(_store: PgStore): Promise<number> {
  return 0;
}
