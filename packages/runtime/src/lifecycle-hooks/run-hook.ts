/**
 * @module lifecycle-hooks/run-hook
 * Runs one `command` hook: `sh -c <command>` (an argument array, no shell of ours in
 * between) in its own process group, the context JSON on stdin, stdout and stderr
 * captured (each capped). On timeout the whole group is killed (SIGTERM, then SIGKILL
 * after a short grace); when the shell exits, whatever it left in its group is killed
 * too, so a hook never outlives its run. The outcome follows the seed's exit codes:
 * 0 parses stdout as a decision when it is JSON (no output = allow), 2 blocks with
 * stderr as the reason, anything else (and a timeout) is a logged non-blocking error.
 */
import { spawn } from 'node:child_process';
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

const KILL_GRACE_MS = 300;
const REAP_WAIT_MS = 3000;

export function runHook(command: string, input: unknown, options: RunHookOptions): Promise<HookRun> {
  const started = performance.now();
  const max = options.max_output_bytes ?? 64 * 1024;
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pgid = child.pid ?? null;
    if (pgid !== null) options.onSpawn?.(pgid);
    const killGroup = (signal: NodeJS.Signals) => {
      if (pgid === null) return;
      try {
        process.kill(-pgid, signal);
      } catch {
        // Already gone.
      }
    };
    const out = capture(max);
    const err = capture(max);
    child.stdout.on('data', out.push);
    child.stderr.on('data', err.push);
    // A hook that never reads stdin closes the pipe: not an error of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(input)}\n`);
    let timedOut = false;
    let hardKill: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      hardKill = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    }, options.timeout_ms);
    let spawnError: string | null = null;
    let exitCode: number | null = null;
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('exit', (code) => {
      exitCode = code;
      killGroup('SIGKILL');
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (hardKill) clearTimeout(hardKill);
      killGroup('SIGKILL');
      const stdout = out.text();
      const stderr = err.text();
      const exit_code = timedOut ? -1 : (exitCode ?? code ?? -1);
      const base = { command, pgid, exit_code, timed_out: timedOut, stdout, stderr };
      const outcome = interpret(exit_code, timedOut, spawnError, stdout, stderr, options.timeout_ms);
      // Resolve once the killed group is gone (reaped), so callers never see it linger.
      void groupGone(pgid, REAP_WAIT_MS).then(() =>
        resolve({ ...base, ...outcome, elapsed_ms: Math.round(performance.now() - started) }),
      );
    });
  });
}

function interpret(
  exit: number,
  timedOut: boolean,
  spawnError: string | null,
  stdout: string,
  stderr: string,
  timeoutMs: number,
): ParsedDecision {
  const none = { decision: null, reason: null, output: null };
  if (timedOut) return { ...none, error: `timed out after ${timeoutMs / 1000}s (process group killed)` };
  if (spawnError) return { ...none, error: `could not start: ${spawnError}` };
  if (exit === 2)
    return { decision: 'block', reason: stderr.trim() || 'blocked by hook (exit 2)', error: null, output: null };
  if (exit !== 0) return { ...none, error: `exit code ${exit}${stderr.trim() ? `: ${stderr.trim()}` : ''}` };
  return parseDecision(stdout);
}

function capture(max: number) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return {
    push: (chunk: Buffer) => {
      if (bytes >= max) return;
      const part = chunk.subarray(0, max - bytes);
      chunks.push(part);
      bytes += part.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/** Polls until no process of the group is left (or `maxMs` passed). */
async function groupGone(pgid: number | null, maxMs: number): Promise<void> {
  if (pgid === null) return;
  const until = performance.now() + maxMs;
  while (performance.now() < until) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
