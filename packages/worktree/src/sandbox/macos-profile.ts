/**
 * @module sandbox/macos-profile
 * The Seatbelt profile `sandbox-exec -p` runs a command under on macOS: deny by
 * default; read anywhere; write only under the writable folders (the worktree, its git
 * folders, the user's temporary folder) and to the terminal devices; run and fork
 * processes, signal only processes of the same sandbox; network only when allowed.
 * macOS has no private /tmp: the writable temporary folder is the user's own
 * ($TMPDIR, per user), not /tmp. Paths are given resolved (/private/var, not /var),
 * because Seatbelt matches the resolved path.
 */

export interface MacosPlan {
  readonly writable: readonly string[];
  readonly allowNetwork: boolean;
}

/** A Seatbelt string literal. */
export function seatbeltString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function macosProfile(plan: MacosPlan): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow file-read*)',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-sem)',
    '(allow ipc-posix-shm)',
    '(allow pseudo-tty)',
    '(allow user-preference-read)',
    '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))',
    '(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
  ];
  if (plan.writable.length > 0) {
    lines.push(`(allow file-write* ${plan.writable.map((p) => `(subpath ${seatbeltString(p)})`).join(' ')})`);
  }
  if (plan.allowNetwork) lines.push('(allow network*)', '(allow system-socket)');
  else lines.push('(allow network* (remote unix-socket))');
  return `${lines.join('\n')}\n`;
}

export function sandboxExecArgs(plan: MacosPlan, command: string): string[] {
  return ['-p', macosProfile(plan), '/bin/sh', '-c', command];
}
