/**
 * @module exec-parallel
 * Seed 004's exec_parallel on worktrees: one command per workspace (or one broadcast),
 * all workspaces at once, one command at a time per workspace. Partial success: one
 * result per input, in input order; an unknown workspace answers exit_code -1 with the
 * reason in stderr. Refusals (length mismatch, a workdir leaving the worktree) are
 * checked before anything runs.
 */
import { resolve } from 'node:path';
import { serialize } from './_git';
import { DEFAULT_MAX_OUTPUT_BYTES, runCommand } from './exec';
import { resolveWorkspace } from './layout';
import type { Repo } from './repo';
import type { SandboxPolicy } from './sandbox/policy';
import { escapes, SwarmSpecError } from './swarm/engine';

export interface ExecParallelSpec {
  readonly workspace_ids: readonly string[];
  readonly commands: string | readonly string[];
  readonly timeout_secs: number;
  readonly workdir?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly max_output_bytes?: number | undefined;
  /** Each command inside the OS sandbox, its workspace writable (colony's `sandbox` setting). */
  readonly sandbox?: SandboxPolicy | undefined;
}

export interface ExecResult {
  workspace_id: string;
  workspace_name: string;
  exit_code: number;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  truncated: boolean;
}

export interface ExecParallelResult {
  results: ExecResult[];
  summary: { total: number; succeeded: number; failed: number; timed_out: number; elapsed_ms: number };
}

/** The command each workspace runs; SwarmSpecError on a length mismatch or an escaping workdir. */
export function commandsFor(spec: ExecParallelSpec): string[] {
  if (spec.workdir !== undefined && escapes(spec.workdir)) {
    throw new SwarmSpecError(`workdir "${spec.workdir}" leaves the worktree`, { fields: ['workdir'] });
  }
  if (typeof spec.commands === 'string') return spec.workspace_ids.map(() => spec.commands as string);
  if (spec.commands.length !== spec.workspace_ids.length) {
    throw new SwarmSpecError(
      `commands has ${spec.commands.length} entries for ${spec.workspace_ids.length} workspace_ids: give one command, or one per workspace`,
      { fields: ['commands'] },
    );
  }
  return [...spec.commands];
}

/** Resolves every id first (undefined = unknown), so a caller can refuse when none is known. */
export async function resolveAll(ids: readonly string[], repo: Repo | null) {
  return Promise.all(ids.map((id) => resolveWorkspace(id, repo)));
}

export async function execParallel(
  spec: ExecParallelSpec,
  resolved: Awaited<ReturnType<typeof resolveAll>>,
): Promise<ExecParallelResult> {
  const commands = commandsFor(spec);
  const started = performance.now();
  const secrets = Object.values(spec.env ?? {});
  const results = await Promise.all(
    spec.workspace_ids.map(async (id, i): Promise<ExecResult> => {
      const ws = resolved[i];
      if (!ws) {
        return {
          workspace_id: id,
          workspace_name: id,
          exit_code: -1,
          stdout: '',
          stderr: `workspace "${id}" not found (WORKSPACE_NOT_FOUND)`,
          timed_out: false,
          truncated: false,
        };
      }
      // One command at a time per worktree.
      const run = await serialize(`exec:${ws.workspace_id}`, () =>
        runCommand(resolve(ws.workspace_id, spec.workdir ?? '.'), commands[i] as string, {
          timeoutMs: spec.timeout_secs * 1000,
          ...(spec.env ? { env: spec.env } : {}),
          maxOutputBytes: spec.max_output_bytes ?? DEFAULT_MAX_OUTPUT_BYTES,
          secrets,
          ...(spec.sandbox ? { sandbox: { policy: spec.sandbox, root: ws.workspace_id } } : {}),
        }),
      );
      return {
        workspace_id: ws.workspace_id,
        workspace_name: ws.workspace_name,
        exit_code: run.exit_code,
        stdout: run.stdout,
        stderr: run.stderr,
        timed_out: run.timed_out,
        truncated: run.truncated,
      };
    }),
  );
  return {
    results,
    summary: {
      total: results.length,
      succeeded: results.filter((r) => r.exit_code === 0).length,
      failed: results.filter((r) => r.exit_code !== 0).length,
      timed_out: results.filter((r) => r.timed_out).length,
      elapsed_ms: Math.round(performance.now() - started),
    },
  };
}
