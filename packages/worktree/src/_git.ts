/**
 * @module git
 * The one way this package runs git: `execFile('git', args)` with an argument array
 * (never a shell string), no terminal prompts (GIT_TERMINAL_PROMPT=0), a timeout, and
 * a typed error naming the command. Commands that change worktrees, refs or the index
 * of a repository run under one lock per repository (`withRepoLock`), in this process
 * and across processes, so two merges or two `worktree add` calls never race on
 * `index.lock`, a ref or a worktree's metadata.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** Why a git command failed: it exited non-zero, timed out, or git could not start. */
export type GitErrorKind = 'exit' | 'timeout' | 'spawn';

export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(
    message: string,
    readonly kind: GitErrorKind,
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface GitOptions {
  readonly cwd: string;
  /** Default 60 s. */
  readonly timeoutMs?: number;
  /** Extra environment over the process's own. */
  readonly env?: Readonly<Record<string, string>>;
  /** Text written to git's stdin. */
  readonly input?: string;
}

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** Identity used only when the repository has none, so auto-commits never fail on a bare machine. */
const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: 'colony',
  GIT_AUTHOR_EMAIL: 'colony@localhost',
  GIT_COMMITTER_NAME: 'colony',
  GIT_COMMITTER_EMAIL: 'colony@localhost',
};

function gitEnv(extra?: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  for (const [key, value] of Object.entries(FALLBACK_IDENTITY)) {
    if (base[key] === undefined) base[key] = value;
  }
  return { ...base, ...extra };
}

/** Runs git and answers its exit code and output, whatever the code; throws GitError only on timeout or spawn failure. */
export function gitRaw(args: readonly string[], options: GitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...args],
      {
        cwd: options.cwd,
        env: gitEnv(options.env),
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBuffer: 256 * 1024 * 1024,
        encoding: 'utf8',
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const e = error as NodeJS.ErrnoException & { killed?: boolean; code?: unknown; signal?: string };
        if (e.killed || e.signal === 'SIGKILL') {
          return reject(new GitError(`git ${args[0]} timed out`, 'timeout', args, null, stderr));
        }
        if (typeof e.code === 'number') return resolve({ code: e.code, stdout, stderr });
        reject(new GitError(`cannot run git: ${e.message}`, 'spawn', args, null, stderr ?? ''));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs git and answers stdout; a non-zero exit throws GitError with git's own message. */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const result = await gitRaw(args, options);
  if (result.code !== 0) {
    const reason = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-3).join(' ');
    throw new GitError(`git ${args.join(' ')} failed: ${reason}`, 'exit', args, result.code, result.stderr);
  }
  return result.stdout;
}

const chains = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call with the same key in this process has settled. */
export function serialize<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prior = chains.get(key) ?? Promise.resolve();
  const next = prior.then(fn, fn);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  chains.set(key, settled);
  void settled.then(() => {
    if (chains.get(key) === settled) chains.delete(key);
  });
  return next;
}

/** The lock's folder inside the common git dir (git ignores files it does not know there). */
export const REPO_LOCK_NAME = 'colony-repo.lock';
/** A holder refreshes the lock's mtime every 10 s; one untouched for 20 s is a dead holder's and is taken over. */
const LOCK_STALE_MS = 20_000;
/** Waits for another process's hold at most about this long, then fails with a `timeout` GitError. */
export const REPO_LOCK_WAIT_MS = 60_000;

/**
 * Runs `fn` holding the repository's lock: first in this process (`serialize`, no
 * polling), then across processes (a `mkdir` lock, `proper-lockfile`, in the common git
 * dir). Git takes no lock of its own around worktree metadata: `git worktree add` writes
 * `worktrees/<id>/` file by file, and another process's `worktree add`, `list` or
 * `branch -D` that reads it half-written dies ("failed to read .../commondir"). So every
 * colony command that changes worktrees, refs or the index of a repository runs under
 * this lock. Hold it for metadata steps only (never a checkout of a whole tree, never a
 * user's command). A holder that crashed is taken over once its lock is 20 s stale.
 */
export function withRepoLock<T>(commonDir: string, fn: () => Promise<T>): Promise<T> {
  return serialize(commonDir, () => withFileLock(commonDir, fn));
}

type Lockfile = typeof import('proper-lockfile');
let lockfile: Promise<Lockfile> | undefined;

async function withFileLock<T>(commonDir: string, fn: () => Promise<T>): Promise<T> {
  // Loaded on the first git change only: a server that never forks a worktree never pays for it.
  lockfile ??= import('proper-lockfile').then((m) => ((m as { default?: Lockfile }).default ?? m) as Lockfile);
  const { lock } = await lockfile;
  const path = join(commonDir, REPO_LOCK_NAME);
  let release: () => Promise<void>;
  try {
    release = await lock(commonDir, {
      lockfilePath: path,
      realpath: false,
      stale: LOCK_STALE_MS,
      // 5 ms, growing to 250 ms between tries: about 60 s in all.
      retries: { retries: 250, factor: 1.5, minTimeout: 5, maxTimeout: 250 },
      // Another process judged this hold stale (this one stalled over 20 s): git's own
      // lock files still guard refs and the index; say so and go on.
      onCompromised: (error) =>
        process.emitWarning(`colony: the repository lock ${path} was taken over: ${error.message}`),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new GitError(
        `another process has held the repository lock ${path} for over ${REPO_LOCK_WAIT_MS / 1000} s`,
        'timeout',
        [],
        null,
        '',
      );
    }
    throw error;
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
