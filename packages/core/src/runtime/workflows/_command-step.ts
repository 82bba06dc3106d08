/**
 * @module runtime/workflows/_command-step
 * One command of a workflow stage or an iteration: a shell string, or an argv whose
 * every element is quoted for the shell, run in the repository through
 * `@swarm/worktree`'s runCommand (own process group, the timeout kills the whole group,
 * output capped). The group is reported as soon as it exists, so another process can
 * kill it (cancel, or a retry after this process died).
 */

import { type Substitutions, shellQuote, substituteShell, substituteText } from '@swarm/coordination';
import { processStartTime, runCommand } from '@swarm/worktree';

export interface CommandSpec {
  readonly command?: string | undefined;
  readonly argv?: readonly string[] | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Seconds. */
  readonly timeout?: number | undefined;
}

export interface StepResult {
  readonly ok: boolean;
  readonly exit_code: number | null;
  readonly output: string;
  readonly stdout: string;
}

export const DEFAULT_TIMEOUT_SECS = 600;
const KEEP = 4000;

export function shellLine(spec: CommandSpec, subs: Substitutions): string {
  if (spec.argv) return spec.argv.map((a) => shellQuote(substituteText(a, subs))).join(' ');
  return substituteShell(spec.command ?? 'true', subs);
}

export async function runCommandStep(
  cwd: string,
  spec: CommandSpec,
  subs: Substitutions,
  options: {
    readonly env?: Readonly<Record<string, string>>;
    readonly onGroup?: (pgid: number, started: number | null) => void;
  },
): Promise<StepResult> {
  const timeout = spec.timeout ?? DEFAULT_TIMEOUT_SECS;
  const result = await runCommand(cwd, shellLine(spec, subs), {
    timeoutMs: timeout * 1000,
    env: { ...options.env, ...spec.env },
    onSpawn: (pgid) => options.onGroup?.(pgid, processStartTime(pgid)),
  });
  const why = result.timed_out ? `timed out after ${timeout}s` : `exit ${result.exit_code}`;
  const text = [result.stdout.trim(), result.exit_code === 0 ? '' : result.stderr.trim()].filter(Boolean).join('\n');
  const tail = text.length > KEEP ? `...${text.slice(-KEEP)}` : text;
  return {
    ok: result.exit_code === 0 && !result.timed_out,
    exit_code: result.timed_out ? null : result.exit_code,
    output: result.exit_code === 0 && !result.timed_out ? tail : `${why}${tail ? `\n${tail}` : ''}`,
    stdout: result.stdout,
  };
}
