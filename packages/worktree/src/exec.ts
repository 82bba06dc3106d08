/**
 * @module exec
 * Runs one shell command in a folder (a user's command is a shell string by nature:
 * `/bin/sh -c`), in its own process group, with a timeout that kills the whole group
 * (SIGTERM, then SIGKILL after a grace period, so a child ignoring SIGTERM dies too),
 * and stdout/stderr each capped at `maxOutputBytes` with a `truncated` flag. When the
 * command exits, whatever it left running in its group is killed, so no process keeps
 * a worktree busy. Optionally tees the whole output to a log file.
 *
 * With `sandbox`, the command runs inside bubblewrap or sandbox-exec (sandbox/wrap.ts);
 * the sandbox is the group leader, so the timeout still kills everything it started.
 *
 * Secret values are masked per stream before anything is kept or logged (see redact.ts):
 * a secret split across two chunks, or one the cap would cut, never shows.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { groupAlive } from './process-groups';
import { planSpawn, type SandboxRequest } from './sandbox/wrap';
import { streamRedactor } from './stream-redactor';

export interface CommandOptions {
  readonly timeoutMs: number;
  /** Environment over the process's own. */
  readonly env?: Readonly<Record<string, string>>;
  /** Per stream; default 262144. */
  readonly maxOutputBytes?: number;
  /** Append stdout and stderr here (masked like the output kept). */
  readonly logFile?: string;
  /** Values masked as `***` in the output kept and logged (see redact.ts). */
  readonly secrets?: Iterable<string>;
  /** Told the process group id as soon as the command started (the shell is its leader). */
  readonly onSpawn?: (pgid: number) => unknown;
  /**
   * Hold the command until `onSpawn`'s answer settles (a promise: say, the group recorded
   * where a later recovery finds it). The process exists, so its group id is known, but
   * it runs nothing of the command before; if this process dies first, the command never
   * starts (see `GATE`).
   */
  readonly holdUntilSpawnRecorded?: boolean;
  /** Epoch-free monotonic timer for elapsed_ms; default performance.now. */
  readonly now?: () => number;
  /** Run inside the OS sandbox per this policy (see sandbox/wrap.ts); default none. */
  readonly sandbox?: SandboxRequest;
  /** Written to the command's stdin, which is then closed; default: stdin at end-of-file. */
  readonly input?: string;
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
/**
 * The held start: the shell waits for a line on fd 3, closes it, and execs the command's
 * own plan in its place (same pid, so the same group and start time). End-of-file instead
 * (the process holding the other end died) exits 125 without running anything.
 */
const GATE = 'read -r _ <&3 || exit 125; exec 3<&-; exec "$@"';
/** How long a finished command waits for its killed group to be reaped. */
const REAP_WAIT_MS = 3000;

export function runCommand(cwd: string, command: string, options: CommandOptions): Promise<CommandResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const secrets = [...(options.secrets ?? [])];
  let log: WriteStream | undefined;
  if (options.logFile) {
    mkdirSync(dirname(options.logFile), { recursive: true });
    log = createWriteStream(options.logFile, { flags: 'a' });
  }
  // The command's TMPDIR: bubblewrap makes it inside its private /tmp (sandbox/bwrap.ts).
  const tmpDir = options.env?.TMPDIR ?? process.env.TMPDIR;
  const sandbox = options.sandbox && tmpDir ? { ...options.sandbox, tmpDir } : options.sandbox;
  const plan = planSpawn(command, cwd, sandbox);
  if (!plan.ok) {
    log?.end();
    return Promise.resolve({
      exit_code: -1,
      stdout: '',
      stderr: plan.reason,
      timed_out: false,
      truncated: false,
      elapsed_ms: 0,
    });
  }
  return new Promise((resolve) => {
    let truncated = false;
    let timedOut = false;
    const held = options.holdUntilSpawnRecorded === true;
    const child = spawn(
      held ? '/bin/sh' : plan.file,
      held ? ['-c', GATE, 'colony-gate', plan.file, ...plan.args] : plan.args,
      {
        cwd,
        env: { ...process.env, ...options.env },
        detached: true,
        stdio: held ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      },
    );
    const told = child.pid === undefined ? undefined : options.onSpawn?.(child.pid);
    if (held) {
      // No pipe when the spawn itself failed: the 'error' event below reports that.
      const gate = child.stdio[3] as Writable | null;
      gate?.on('error', () => undefined);
      const open = () => gate?.end('go\n');
      if (told && typeof (told as PromiseLike<unknown>).then === 'function') {
        (told as PromiseLike<unknown>).then(open, open);
      } else open();
    }
    // Input, then end-of-file (at once without input). A command that never reads its
    // stdin closes the pipe: not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    /** One stream: bytes decoded (a character split across chunks stays whole), masked, then logged and capped. */
    const stream = () => {
      const decoder = new StringDecoder('utf8');
      const redactor = streamRedactor(secrets);
      const kept: Buffer[] = [];
      let bytes = 0;
      const take = (text: string) => {
        if (text === '') return;
        log?.write(text);
        const room = max - bytes;
        if (room <= 0) {
          truncated = true;
          return;
        }
        const buffer = Buffer.from(text, 'utf8');
        const part = buffer.length > room ? buffer.subarray(0, room) : buffer;
        if (part.length < buffer.length) truncated = true;
        kept.push(part);
        bytes += part.length;
      };
      return {
        data: (chunk: Buffer) => take(redactor.push(decoder.write(chunk))),
        finish: (): string => {
          take(redactor.push(decoder.end()));
          take(redactor.end());
          return Buffer.concat(kept).toString('utf8');
        },
      };
    };
    const out = { stdout: stream(), stderr: stream() };
    child.stdout.on('data', out.stdout.data);
    child.stderr.on('data', out.stderr.data);
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
        stdout: out.stdout.finish(),
        stderr: out.stderr.finish() + (spawnError ? `\n${spawnError}` : ''),
        timed_out: timedOut,
        truncated,
        elapsed_ms: Math.round(now() - started),
      };
      // Resolve once the killed group is gone (reaped), so a caller never sees it linger.
      void groupGone(child.pid, REAP_WAIT_MS).then(() => {
        if (log) log.end(() => resolve(result));
        else resolve(result);
      });
    });
  });
}

/**
 * Polls until no live process of the group is left (or `maxMs` passed). On Linux a group
 * holding only zombies counts as gone: in a container whose PID 1 reaps orphans slowly
 * (every ~2 s), waiting for the zombies to be reaped would add that delay to every command.
 */
async function groupGone(pgid: number | undefined, maxMs: number): Promise<void> {
  if (pgid === undefined) return;
  const until = performance.now() + maxMs;
  while (performance.now() < until) {
    if (!groupAlive(pgid)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
