/**
 * @module lifecycle-hooks/run-hook
 * Runs one `command` hook: `sh -c <command>` (an argument array, no shell of ours in
 * between) in its own process group, the context JSON on stdin, stdout and stderr
 * captured (each capped). On timeout the whole group is killed (SIGTERM, then SIGKILL
 * after a short grace); when the shell exits, whatever it left in its group is killed
 * too, so a hook never outlives its run. The outcome follows the seed's exit codes:
 * 0 parses stdout as a decision when it is JSON (no output = allow), 2 blocks with
 * stderr as the reason, anything else (and a timeout) is a logged non-blocking error.
 * The process handling is worktree's `runCommand` (stdin input, group kill, reaping).
 */
import { runCommand } from '@swarm/worktree';
import { type ParsedDecision, parseDecision } from './decision.js';

export interface HookRun extends ParsedDecision {
  readonly command: string;
  /** The process group id (the shell's pid), when it started. */
  readonly pgid: number | null;
  /** -1 when killed or it could not start. */
  readonly exit_code: number;
  readonly timed_out: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly elapsed_ms: number;
}

export interface RunHookOptions {
  readonly cwd: string;
  readonly timeout_ms: number;
  readonly env?: Readonly<Record<string, string>>;
  readonly max_output_bytes?: number;
  /** Told the process group id once the shell started. */
  readonly onSpawn?: (pgid: number) => void;
}

/** Runs the hook through worktree's command runner (process group, timeout kill, reaping). */
export async function runHook(command: string, input: unknown, options: RunHookOptions): Promise<HookRun> {
  let pgid: number | null = null;
  const run = await runCommand(options.cwd, command, {
    timeoutMs: options.timeout_ms,
    maxOutputBytes: options.max_output_bytes ?? 64 * 1024,
    input: `${JSON.stringify(input)}\n`,
    onSpawn: (id) => {
      pgid = id;
      options.onSpawn?.(id);
    },
    ...(options.env ? { env: options.env } : {}),
  });
  const { exit_code, timed_out, stdout, stderr, elapsed_ms } = run;
  const outcome = interpret(exit_code, timed_out, pgid === null, stdout, stderr, options.timeout_ms);
  return { command, pgid, exit_code, timed_out, stdout, stderr, ...outcome, elapsed_ms };
}

function interpret(
  exit: number,
  timedOut: boolean,
  notStarted: boolean,
  stdout: string,
  stderr: string,
  timeoutMs: number,
): ParsedDecision {
  const none = { decision: null, reason: null, output: null };
  if (timedOut) return { ...none, error: `timed out after ${timeoutMs / 1000}s (process group killed)` };
  if (notStarted) return { ...none, error: `could not start: ${stderr.trim()}` };
  if (exit === 2)
    return { decision: 'block', reason: stderr.trim() || 'blocked by hook (exit 2)', error: null, output: null };
  if (exit !== 0) return { ...none, error: `exit code ${exit}${stderr.trim() ? `: ${stderr.trim()}` : ''}` };
  return parseDecision(stdout);
}
