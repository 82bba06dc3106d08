/**
 * @module exec
 * Runs one shell command in a folder (a user's command is a shell string by nature:
 * `/bin/sh -c`), in its own process group, with a timeout that kills the whole group
 * (SIGTERM, then SIGKILL after a grace period, so a child ignoring SIGTERM dies too),
 * and stdout/stderr each capped at `maxOutputBytes` with a `truncated` flag. When the
 * command exits, whatever it left running in its group is killed, so no process keeps
 * a worktree busy. Optionally tees the whole output to a log file.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

export interface CommandOptions {
  readonly timeoutMs: number;
  /** Environment over the process's own. */
  readonly env?: Readonly<Record<string, string>>;
  /** Per stream; default 262144. */
  readonly maxOutputBytes?: number;
  /** Append stdout and stderr here (secrets must be redacted by `redact`). */
  readonly logFile?: string;
  /** Applied to output kept and logged (e.g. to hide secret values). */
  readonly redact?: (text: string) => string;
  /** Epoch-free monotonic timer for elapsed_ms; default performance.now. */
  readonly now?: () => number;
}

export interface CommandResult {
  /** Exit code; -1 when killed by a signal or it could not start. */
  exit_code: number;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  truncated: boolean;
  elapsed_ms: number;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 262_144;
const KILL_GRACE_MS = 500;

export function runCommand(cwd: string, command: string, options: CommandOptions): Promise<CommandResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const redact = options.redact ?? ((t: string) => t);
  let log: WriteStream | undefined;
  if (options.logFile) {
    mkdirSync(dirname(options.logFile), { recursive: true });
    log = createWriteStream(options.logFile, { flags: 'a' });
  }
  return new Promise((resolve) => {
    const out = { stdout: [] as Buffer[], stderr: [] as Buffer[], bytes: { stdout: 0, stderr: 0 } };
    let truncated = false;
    let timedOut = false;
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const collect = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      log?.write(redact(chunk.toString('utf8')));
      const room = max - out.bytes[stream];
      if (room <= 0) {
        truncated = true;
        return;
      }
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      if (kept.length < chunk.length) truncated = true;
      out[stream].push(kept);
      out.bytes[stream] += kept.length;
    };
    child.stdout.on('data', collect('stdout'));
    child.stderr.on('data', collect('stderr'));
    let hardKill: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      hardKill = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    }, options.timeoutMs);
    let exitCode: number | null = null;
    let spawnError: string | undefined;
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('exit', (code) => {
      exitCode = code;
      // Whatever the command left behind in its group dies with it (closes the pipes too).
      killGroup('SIGKILL');
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (hardKill) clearTimeout(hardKill);
      killGroup('SIGKILL');
      const finalCode = exitCode ?? code;
      const result: CommandResult = {
        exit_code: timedOut || finalCode === null ? -1 : finalCode,
        stdout: redact(Buffer.concat(out.stdout).toString('utf8')),
        stderr: redact(Buffer.concat(out.stderr).toString('utf8') + (spawnError ? `\n${spawnError}` : '')),
        timed_out: timedOut,
        truncated,
        elapsed_ms: Math.round(now() - started),
      };
      if (log) log.end(() => resolve(result));
      else resolve(result);
    });
  });
}

/** A redactor replacing each secret value (4+ characters) with `***`. */
export function secretRedactor(values: Iterable<string>): (text: string) => string {
  const secrets = [...new Set(values)].filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let result = text;
    for (const secret of secrets) result = result.split(secret).join('***');
    return result;
  };
}
