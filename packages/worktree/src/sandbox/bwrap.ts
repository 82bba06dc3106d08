/**
 * @module sandbox/bwrap
 * The bubblewrap argument list for one command: the whole file system read-only, a
 * private /tmp (tmpfs), the command's $TMPDIR made in it when it lies under /tmp (as
 * pam_tmpdir's /tmp/user/<uid>: otherwise mktemp and every tool's temporary files fail
 * inside), a minimal /dev, a fresh /proc, the writable folders bound read-write over
 * that (after /tmp, so a worktree under /tmp stays the real one), no network unless
 * allowed, a pid namespace (when bwrap dies, everything inside dies with it) and
 * --die-with-parent. No --new-session: the command stays in the process
 * group exec.ts kills on timeout (stdin is not a terminal, so TIOCSTI is moot).
 */
import { posix } from 'node:path';

export interface BwrapPlan {
  /** Folders bound read-write (they must exist). */
  readonly writable: readonly string[];
  readonly allowNetwork: boolean;
  /** Working directory inside the sandbox (same path as outside). */
  readonly cwd: string;
  /** The command's $TMPDIR, if set: made (empty) inside the private /tmp when it lies under it. */
  readonly tmpDir?: string;
}

export function bwrapArgs(plan: BwrapPlan, command: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const tmpDir = underTmp(plan.tmpDir);
  if (tmpDir) args.push('--dir', tmpDir);
  for (const folder of plan.writable) args.push('--bind', folder, folder);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent');
  if (!plan.allowNetwork) args.push('--unshare-net');
  args.push('--chdir', plan.cwd, '--', '/bin/sh', '-c', command);
  return args;
}

/** `dir` normalized when it is an absolute path strictly under /tmp; else undefined. */
function underTmp(dir: string | undefined): string | undefined {
  if (!dir?.startsWith('/')) return undefined;
  const normal = posix.normalize(dir).replace(/\/+$/, '');
  return normal.startsWith('/tmp/') ? normal : undefined;
}
