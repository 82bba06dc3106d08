/**
 * @module sandbox/detect
 * Which OS sandbox commands can run under here, and why not when none can: bubblewrap
 * on Linux (proved by running `bwrap --ro-bind / / true` once: the binary may be there
 * while user namespaces are blocked), `sandbox-exec` on macOS. The answer is cached per
 * process; `refresh` asks again. `colony doctor` and `colony swarm config` call this.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type SandboxKind = 'bwrap' | 'sandbox-exec';

export interface SandboxStatus {
  /** The sandbox in use, or null when commands would run unsandboxed. */
  readonly kind: SandboxKind | null;
  /** Its binary (absolute), when found. */
  readonly binary: string | null;
  /** One sentence: what is active, or why nothing is. */
  readonly reason: string;
}

export interface DetectOptions {
  /** Ask again instead of the cached answer. */
  readonly refresh?: boolean;
  readonly platform?: NodeJS.Platform;
  /** Search path for the binary; default $PATH. */
  readonly path?: string;
}

let cached: SandboxStatus | undefined;

export function detectSandbox(options: DetectOptions = {}): SandboxStatus {
  if (cached && !options.refresh && options.platform === undefined && options.path === undefined) return cached;
  const status = probe(options.platform ?? process.platform, options.path ?? process.env.PATH ?? '');
  if (options.platform === undefined && options.path === undefined) cached = status;
  return status;
}

function probe(platform: NodeJS.Platform, path: string): SandboxStatus {
  if (platform === 'darwin') {
    const binary =
      which('sandbox-exec', path) ?? (existsSync('/usr/bin/sandbox-exec') ? '/usr/bin/sandbox-exec' : null);
    if (!binary)
      return { kind: null, binary: null, reason: 'sandbox-exec not found (it ships with macOS in /usr/bin)' };
    return { kind: 'sandbox-exec', binary, reason: `sandbox-exec (${binary}) with a generated profile` };
  }
  if (platform !== 'linux') return { kind: null, binary: null, reason: `no sandbox is supported on ${platform}` };
  const binary = which('bwrap', path);
  if (!binary) {
    return { kind: null, binary: null, reason: 'bubblewrap (bwrap) not found on PATH: install the bubblewrap package' };
  }
  const run = spawnSync(binary, ['--ro-bind', '/', '/', 'true'], { encoding: 'utf8', timeout: 10_000 });
  if (run.status === 0) return { kind: 'bwrap', binary, reason: `bubblewrap (${binary}) works here` };
  const why = (run.stderr || run.error?.message || `exit ${run.status}`).trim().split('\n')[0];
  return {
    kind: null,
    binary,
    reason: `bubblewrap (${binary}) cannot run here, user namespaces are probably blocked: ${why}`,
  };
}

function which(name: string, path: string): string | null {
  for (const folder of path.split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}
