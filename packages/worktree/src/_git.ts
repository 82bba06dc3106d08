/**
 * @module git
 * The one way this package runs git: `execFile('git', args)` with an argument array
 * (never a shell string), no terminal prompts (GIT_TERMINAL_PROMPT=0), a timeout, and
 * a typed error naming the command. Commands that change refs or the index of a
 * repository run under one lock per repository (`withRepoLock`), so two merges or two
 * `worktree add` calls in one process never race on `index.lock` or a ref.
 */
import { execFile } from 'node:child_process';

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

const repoLocks = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier locked call for the same repository (its common git
 * dir) has settled. In-process only: git's own lock files guard across processes.
 */
export function withRepoLock<T>(commonDir: string, fn: () => Promise<T>): Promise<T> {
  const prior = repoLocks.get(commonDir) ?? Promise.resolve();
  const next = prior.then(fn, fn);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  repoLocks.set(commonDir, settled);
  void settled.then(() => {
    if (repoLocks.get(commonDir) === settled) repoLocks.delete(commonDir);
  });
  return next;
}
