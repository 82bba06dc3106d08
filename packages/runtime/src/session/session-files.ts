/**
 * @module session/session-files
 * The session's files in the repository's `.colony/` folder (seed 003 `.swarm/`):
 * `session.json` (SessionInfo), `session.lock` (the session runner's PID) and
 * `stop-request.json` (the stop mode `colony swarm stop` asks for, since a signal
 * carries no data). Each is written atomically (temp file, then rename). A session
 * whose PID is gone is stale (`process.kill(pid, 0)`: ESRCH = dead, EPERM = alive).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STOP_MODES = ['merge', 'squash', 'discard'] as const;
export type StopMode = (typeof STOP_MODES)[number];

export interface SessionInfo {
  readonly id: string;
  readonly base_commit: string;
  /** The branch checked out at start (where stop merges). */
  readonly base_branch: string;
  /** Agents in config order; the supervisor last when there is one. */
  readonly agents: readonly string[];
  readonly supervisor: string | null;
  /** ISO 8601 (UTC). */
  readonly started_at: string;
  readonly pid: number;
  /** colony's store the agents' messages live in. */
  readonly db_path: string;
  /** Whether `--stash` stashed the user's changes. */
  readonly stashed: boolean;
}

export interface StopRequest {
  readonly mode: StopMode;
  readonly requested_at: string;
}

export function sessionPaths(root: string) {
  const dir = join(root, '.colony');
  return {
    dir,
    session: join(dir, 'session.json'),
    lock: join(dir, 'session.lock'),
    stop: join(dir, 'stop-request.json'),
    status: join(dir, 'session-status.json'),
    logs: join(dir, 'logs'),
    worktrees: join(dir, 'worktrees'),
  };
}

export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function writeSession(root: string, info: SessionInfo): void {
  const paths = sessionPaths(root);
  mkdirSync(paths.dir, { recursive: true });
  writeAtomic(paths.session, `${JSON.stringify(info, null, 2)}\n`);
  writeAtomic(paths.lock, `${info.pid}\n`);
}

export function readSession(root: string): SessionInfo | null {
  try {
    return JSON.parse(readFileSync(sessionPaths(root).session, 'utf8')) as SessionInfo;
  } catch {
    return null;
  }
}

/** The lock's PID, else the session file's. */
export function sessionPid(root: string, info: SessionInfo | null): number | null {
  try {
    const pid = Number(readFileSync(sessionPaths(root).lock, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0) return pid;
  } catch {
    // no lock: fall back to session.json
  }
  return info?.pid ?? null;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (exited, not yet reaped by its parent) answers kill(0) but is gone.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

export type SessionCheck =
  | { readonly state: 'none' }
  | { readonly state: 'active'; readonly info: SessionInfo; readonly pid: number }
  | { readonly state: 'stale'; readonly info: SessionInfo | null; readonly pid: number | null };

export function checkSession(root: string): SessionCheck {
  const paths = sessionPaths(root);
  if (!existsSync(paths.session) && !existsSync(paths.lock)) return { state: 'none' };
  const info = readSession(root);
  const pid = sessionPid(root, info);
  if (info && pid !== null && processAlive(pid)) return { state: 'active', info, pid };
  return { state: 'stale', info, pid };
}

export function removeSessionFiles(root: string): void {
  const paths = sessionPaths(root);
  for (const file of [paths.session, paths.lock, paths.stop, paths.status]) rmSync(file, { force: true });
}

export function writeStopRequest(root: string, mode: StopMode, now: number): void {
  writeAtomic(sessionPaths(root).stop, `${JSON.stringify({ mode, requested_at: new Date(now).toISOString() })}\n`);
}

export function readStopRequest(root: string): StopRequest | null {
  try {
    return JSON.parse(readFileSync(sessionPaths(root).stop, 'utf8')) as StopRequest;
  } catch {
    return null;
  }
}
