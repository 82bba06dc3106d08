/**
 * @module proc
 * What /proc tells of a process (Linux): its state, process group, start time, working
 * directory. Off Linux every answer is "unknown" (null, none, false).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { sep } from 'node:path';

export interface ProcStat {
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
export function members(pgid: number): ProcStat[] {
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

/** Whether a process's working directory is `folder` or inside it. */
export function worksInside(pid: number, folder: string): boolean {
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return cwd === folder || cwd.startsWith(folder + sep);
  } catch {
    return false;
  }
}
