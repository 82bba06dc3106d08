/**
 * @module runtime/workflows/_alive
 * Whether a run's driver process still lives: its pid with the start time recorded when
 * it claimed the run (a reused pid is another process). Where start times are unknown
 * (not Linux), a live pid is taken as the driver.
 */
import { processStartTime } from '@swarm/worktree';

export function driverAlive(pid: number, started: number | null): boolean {
  if (started !== null) {
    const now = processStartTime(pid);
    if (now !== null) return now === started;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process as a driver. */
export function self(): { pid: number; started: number | null } {
  return { pid: process.pid, started: processStartTime(process.pid) };
}

/** SIGKILLs a process group this process started (its own running stage). */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
