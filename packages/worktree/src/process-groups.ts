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
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly pgrp: number;
  readonly start: number;
}

function readStat(pid: number): ProcStat | null {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: fields resume after the last ')'.
  const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), fields[2] field 5 (pgrp), fields[19] field 22 (starttime).
  return { pid, state: fields[0] ?? '', pgrp: Number(fields[2]), start: Number(fields[19]) };
}

/** A process's start time (clock ticks since boot), to tell it from a later one with its pid; null off Linux. */
export function processStartTime(pid: number): number | null {
  return readStat(pid)?.start ?? null;
}

/** The live (not zombie) members of a process group. */
function members(pgid: number): ProcStat[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const out: ProcStat[] = [];
  for (const name of pids) {
    const stat = readStat(Number(name));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z') out.push(stat);
  }
  return out;
}

function worksInside(pid: number, folder: string): boolean {
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return cwd === folder || cwd.startsWith(folder + sep);
  } catch {
    return false;
  }
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
