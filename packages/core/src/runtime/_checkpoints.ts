/**
 * @module runtime/_checkpoints
 * The session runner's periodic WAL checkpoint (seed 003 start flow): every
 * `every_ms` (default 60 s) one PASSIVE checkpoint of colony's store, so the WAL of a
 * long session does not grow without bound. The timer is unref'd (it never keeps the
 * process alive), a checkpoint that throws is logged and the next one retries, and
 * `stop()` (session stop) clears it.
 */
export const WAL_CHECKPOINT_SECS = 60;

export interface CheckpointTimer {
  /** Whether the timer would keep the process alive (never: it is unref'd). */
  hasRef(): boolean;
  stop(): void;
}

export function startCheckpoints(
  run: () => unknown,
  options: { every_ms?: number; log?: (line: string) => void } = {},
): CheckpointTimer {
  const timer = setInterval(
    () => {
      try {
        run();
      } catch (error) {
        options.log?.(`wal checkpoint failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    options.every_ms ?? WAL_CHECKPOINT_SECS * 1000,
  );
  timer.unref();
  return { hasRef: () => timer.hasRef(), stop: () => clearInterval(timer) };
}
