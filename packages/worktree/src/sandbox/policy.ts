/**
 * @module sandbox/policy
 * The `sandbox` setting: how commands run (`mode`), whether they reach the network and
 * which folders beyond the command's own worktree they may write. One schema, used by
 * the agent runtime's project entry (agent `bash`, default `auto`) and by colony's
 * settings (exec_parallel and swarm_run, default `off`).
 *
 * - `off`: no sandbox.
 * - `auto`: the platform's sandbox when it works here, else unsandboxed (and
 *   `colony swarm config` / `colony doctor` say so).
 * - `required`: never run a command without a sandbox; it fails with the reason instead.
 *
 * Network is all or nothing: bubblewrap can only keep or drop the network namespace,
 * so per-host rules would need a proxy (not built); see docs/sandbox.md.
 */
import { z } from 'zod';

export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export const SandboxConfigSchema = z.strictObject({
  mode: z.enum(SANDBOX_MODES).optional(),
  /** Default false: the command gets its own empty network namespace (loopback only). */
  allow_network: z.boolean().optional(),
  /** Absolute folders writable beside the worktree (and its git folders). */
  writable: z.array(z.string().startsWith('/', 'an absolute path')).optional(),
});
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;

/** A `sandbox` setting with its defaults applied. */
export interface SandboxPolicy {
  readonly mode: SandboxMode;
  readonly allow_network: boolean;
  readonly writable: readonly string[];
}

/** Applies defaults; `mode` defaults to `fallback` (agents: auto; exec_parallel and swarm_run: off). */
export function sandboxPolicy(config: SandboxConfig | null | undefined, fallback: SandboxMode): SandboxPolicy {
  return {
    mode: config?.mode ?? fallback,
    allow_network: config?.allow_network ?? false,
    writable: config?.writable ?? [],
  };
}
