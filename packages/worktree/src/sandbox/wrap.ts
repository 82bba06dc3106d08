/**
 * @module sandbox/wrap
 * What to spawn for one shell command under a `sandbox` policy: `/bin/sh -c` itself
 * (mode off, or auto with no sandbox here), the command inside bubblewrap or
 * sandbox-exec, or a refusal (mode required with no sandbox here) that exec.ts turns
 * into a failed result without running anything. Writable: the worktree root, its git
 * folders (so the agent can commit) and the policy's `writable` folders that exist.
 */
import { existsSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { bwrapArgs } from './bwrap';
import { detectSandbox, type SandboxKind, type SandboxStatus } from './detect';
import { worktreeGitDirs } from './git-dirs';
import { sandboxExecArgs } from './macos-profile';
import type { SandboxPolicy } from './policy';

export interface SandboxRequest {
  readonly policy: SandboxPolicy;
  /** The worktree the command may write (its cwd may be a folder inside it). */
  readonly root: string;
  /** The command's $TMPDIR, if set (exec.ts: its env's, else this process's). */
  readonly tmpDir?: string;
}

export type SpawnPlan =
  | { readonly ok: true; readonly file: string; readonly args: string[]; readonly sandbox: SandboxKind | null }
  | { readonly ok: false; readonly reason: string };

export function planSpawn(
  command: string,
  cwd: string,
  request: SandboxRequest | undefined,
  status: () => SandboxStatus = detectSandbox,
): SpawnPlan {
  const plain: SpawnPlan = { ok: true, file: '/bin/sh', args: ['-c', command], sandbox: null };
  if (!request || request.policy.mode === 'off') return plain;
  const found = status();
  if (!found.kind || !found.binary) {
    if (request.policy.mode === 'required') {
      return { ok: false, reason: `sandbox required but none is available: ${found.reason}` };
    }
    return plain;
  }
  const writable = writableFolders(request, found.kind);
  const allowNetwork = request.policy.allow_network;
  const args =
    found.kind === 'bwrap'
      ? bwrapArgs({ writable, allowNetwork, cwd, ...(request.tmpDir ? { tmpDir: request.tmpDir } : {}) }, command)
      : sandboxExecArgs({ writable, allowNetwork }, command);
  return { ok: true, file: found.binary, args, sandbox: found.kind };
}

function writableFolders(request: SandboxRequest, kind: SandboxKind): string[] {
  const wanted = [request.root, ...worktreeGitDirs(request.root), ...request.policy.writable];
  if (kind === 'sandbox-exec') wanted.push(request.tmpDir ?? tmpdir());
  const out = new Set<string>();
  for (const folder of wanted) {
    if (!existsSync(folder)) continue;
    out.add(kind === 'sandbox-exec' ? realpathSync(folder) : folder);
  }
  return [...out];
}
