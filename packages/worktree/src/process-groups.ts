/**
 * @module process-groups
 * Finding and killing a task command's process group after the process that ran it died
 * (a server killed mid-run leaves its commands running, reparented to init).
 *
 * A process group id is its leader's pid, and pids are reused: a recorded pgid is killed
 * only when the group is still ours. Ours means its leader lives with the start time we
 * recorded (`/proc/<pid>/stat` field 22, clock ticks since boot), or, when the leader
 * itself is gone, that a member started no earlier than it and works inside the task's
 * worktree (`/proc/<pid>/cwd`). This reads /proc, so it works on Linux; elsewhere
 * `processStartTime` answers null and `killOwnedGroup` kills nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { members, worksInside } from './_proc';

export { processStartTime } from './_proc';

/**
 * Whether a live process is left in the group. On Linux a zombie does not count (it runs
 * nothing; in a container a slow-reaping init may hold it for seconds); elsewhere any
 * member the kernel still knows does.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  return process.platform !== 'linux' || members(pgid).length > 0;
}

/** Whether a recorded group is still ours (see the module header); false when it is gone. */
export function ownsGroup(pgid: number, startedAt: number, worktree: string): boolean {
  const live = members(pgid);
  const leader = live.find((m) => m.pid === pgid);
  if (leader) return leader.start === startedAt;
  return live.some((m) => m.start >= startedAt && worksInside(m.pid, worktree));
}

/**
 * Kills a recorded process group with SIGKILL if it is still ours, and waits (bounded by
 * `waitMs`) until no live member is left. Answers whether it killed anything.
 */
export async function killOwnedGroup(
  pgid: number,
  startedAt: number,
  worktree: string,
  waitMs = 2_000,
): Promise<boolean> {
  if (!ownsGroup(pgid, startedAt, worktree)) return false;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    return false;
  }
  for (let waited = 0; waited < waitMs && members(pgid).length > 0; waited += 20) await sleep(20);
  return true;
}
