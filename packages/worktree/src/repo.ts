/**
 * @module repo
 * A repository as the git CLI sees it: its top folder, its common git dir (shared by
 * every linked worktree), the git version check (>= 2.20, for `worktree lock`), and
 * colony's runtime folder `<root>/.colony/`, listed in the repository's
 * `info/exclude` (never in .gitignore) so it never shows in `git status`.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { GitError, git, gitRaw } from './_git';

export const MIN_GIT_VERSION = '2.20.0';
/** The folder under a repository's root holding colony's worktrees, logs and temporary trees. */
export const COLONY_DIR = '.colony';

export interface Repo {
  /** Absolute top folder of the worktree given (the user's checkout). */
  readonly root: string;
  /** Absolute common git dir (`.git` of the main worktree). */
  readonly commonDir: string;
}

/** Refusals a caller maps to its own codes; values, not throws, for expected outcomes. */
export class RepoError extends Error {
  override readonly name = 'RepoError';
  constructor(
    readonly reason: 'not_a_repo' | 'git_too_old' | 'ref_not_found' | 'dirty_tree',
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

let versionCache: Promise<string> | undefined;

/** `git --version` as `x.y.z`. */
export function gitVersion(): Promise<string> {
  versionCache ??= git(['--version'], { cwd: process.cwd() }).then((out) => {
    const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(out);
    if (!match) throw new GitError(`cannot read the git version from "${out.trim()}"`, 'exit', ['--version'], 0, '');
    return `${match[1]}.${match[2]}.${match[3] ?? '0'}`;
  });
  return versionCache;
}

/** Whether version `a` >= `b` (dotted numbers). */
export function versionAtLeast(a: string, b: string): boolean {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** Throws RepoError('git_too_old') naming the version found when git is older than 2.20. */
export async function requireGit(found?: string): Promise<string> {
  const version = found ?? (await gitVersion());
  if (!versionAtLeast(version, MIN_GIT_VERSION)) {
    throw new RepoError('git_too_old', `git ${version} is too old: colony needs git >= 2.20 (for worktree lock)`, {
      found: version,
      required: MIN_GIT_VERSION,
    });
  }
  return version;
}

/** Opens the repository holding `path` (checks git's version first). */
export async function openRepo(path: string): Promise<Repo> {
  await requireGit();
  const dir = resolve(path);
  if (!existsSync(dir)) throw new RepoError('not_a_repo', `${dir} does not exist`, { repo_root: dir });
  const out = await gitRaw(['rev-parse', '--show-toplevel', '--git-common-dir'], { cwd: dir });
  if (out.code !== 0) throw new RepoError('not_a_repo', `${dir} is not inside a git repository`, { repo_root: dir });
  const [top = dir, common = '.git'] = out.stdout.trim().split('\n');
  const commonDir = isAbsolute(common) ? common : resolve(dir, common);
  return { root: resolve(top), commonDir };
}

/** `<root>/.colony`, created and listed in `info/exclude` on first use. */
export function colonyDir(repo: Repo): string {
  const dir = join(repo.root, COLONY_DIR);
  mkdirSync(dir, { recursive: true });
  const exclude = join(repo.commonDir, 'info', 'exclude');
  const current = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  if (!current.split('\n').some((line) => line.trim() === `/${COLONY_DIR}/` || line.trim() === `${COLONY_DIR}/`)) {
    mkdirSync(join(repo.commonDir, 'info'), { recursive: true });
    appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}/${COLONY_DIR}/\n`);
  }
  return dir;
}

/** The commit a commit-ish names, or RepoError('ref_not_found'). */
export async function resolveCommit(cwd: string, ref: string): Promise<string> {
  const out = await gitRaw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd });
  if (out.code !== 0) throw new RepoError('ref_not_found', `"${ref}" does not name a commit`, { ref });
  return out.stdout.trim();
}

/** The commit a ref names, or null. */
export async function tryResolve(cwd: string, ref: string): Promise<string | null> {
  const out = await gitRaw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd });
  return out.code === 0 ? out.stdout.trim() : null;
}

/** Whether `name` is a valid branch name (`git check-ref-format --branch`). */
export async function isValidBranch(cwd: string, name: string): Promise<boolean> {
  const out = await gitRaw(['check-ref-format', '--branch', name], { cwd });
  return out.code === 0 && !name.startsWith('-');
}
