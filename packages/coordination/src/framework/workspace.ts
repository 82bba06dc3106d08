/**
 * @module framework/workspace
 * The confinement of seed-000 file tools to a workspace root. A path is accepted only
 * when it stays inside the root lexically (no `..` out, no absolute path elsewhere)
 * AND physically: the real path of the deepest part that exists (the file itself, or
 * the folder a new file would go into) must lie inside the root's real path, so a
 * symlink cannot lead out. `.git` is never touched, in any spelling a case-insensitive
 * file system folds onto it, nor through a symlink; .gitignored paths are refused.
 * Refusals: PATH_OUTSIDE_REPO, PATH_IGNORED, PATH_NOT_FOUND (and INVALID_PARAMETERS
 * for names the file system cannot hold).
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ColonyError } from '@swarm/tools';
import { touchesDotGit } from './dot-git';
import { GitIgnore } from './gitignore';

export interface WorkspacePath {
  /** Relative to the root, `/`-separated; '' for the root itself. */
  readonly rel: string;
  /** Absolute, under the root's real path. */
  readonly abs: string;
}

export class Workspace {
  /** The root's real path: the one spelling under which proposals are stored. */
  readonly root: string;
  readonly #given: string;
  #ignore: GitIgnore | undefined;

  private constructor(given: string, root: string) {
    this.#given = given;
    this.root = root;
  }

  /** Opens an existing folder as a workspace; PATH_NOT_FOUND otherwise. */
  static open(repoRoot: string): Workspace {
    const given = resolve(repoRoot);
    let root: string;
    try {
      root = realpathSync(given);
    } catch (error) {
      throw notFound(repoRoot, 'repo_root', error);
    }
    if (!statSync(root).isDirectory()) throw notFound(repoRoot, 'repo_root');
    return new Workspace(given, root);
  }

  /**
   * Resolves a path given by an agent. Throws PATH_OUTSIDE_REPO when it leaves the
   * workspace, lexically or through a symlink; PATH_IGNORED for `.git`.
   */
  resolve(input: string, field = 'path'): WorkspacePath {
    const slashed = input.replaceAll('\\', '/');
    const rel = this.#lexical(slashed);
    if (rel === undefined) throw outside(input, field, this.root, 'leaves the workspace');
    if (touchesDotGit(rel)) throw inGit(input, field);
    const abs = rel === '' ? this.root : join(this.root, ...rel.split('/'));
    const real = realOfDeepestExisting(abs, input, field, this.root);
    if (real !== this.root && !real.startsWith(this.root + sep)) {
      throw outside(input, field, this.root, 'resolves outside the workspace through a symlink');
    }
    // A symlink inside the workspace may lead into .git.
    if (real !== this.root && touchesDotGit(relative(this.root, real).split(sep).join('/'))) throw inGit(input, field);
    return { rel, abs };
  }

  /** Whether .gitignore rules (root and nested) exclude the path or a folder above it. */
  ignored(rel: string, isDir: boolean): boolean {
    if (rel === '') return false;
    this.#ignore ??= new GitIgnore(this.root);
    return this.#ignore.ignoredPath(rel, isDir);
  }

  /** The rules, for walkers that check one entry at a time as they descend. */
  get gitignore(): GitIgnore {
    this.#ignore ??= new GitIgnore(this.root);
    return this.#ignore;
  }

  /** Refuses a path .gitignore excludes. */
  requireNotIgnored(path: WorkspacePath, isDir: boolean, input: string, field = 'path'): void {
    if (this.ignored(path.rel, isDir)) {
      throw new ColonyError('PATH_IGNORED', `${field} "${input}" is excluded by .gitignore`, {
        details: { [field]: input },
      });
    }
  }

  /** `rel` when the lexical path stays inside the root (given or real spelling). */
  #lexical(slashed: string): string | undefined {
    if (!isAbsolute(slashed)) return inside(relative(this.root, resolve(this.root, slashed)));
    const abs = resolve(slashed);
    return inside(relative(this.root, abs)) ?? inside(relative(this.#given, abs));
  }
}

function inside(rel: string): string | undefined {
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** The real path of `abs`, or of its deepest existing ancestor when it does not exist yet. */
function realOfDeepestExisting(abs: string, input: string, field: string, root: string): string {
  let current = abs;
  for (;;) {
    let exists = false;
    try {
      lstatSync(current);
      exists = true;
      return realpathSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENAMETOOLONG') {
        throw new ColonyError('INVALID_PARAMETERS', `${field} is too long for the file system`, {
          details: { fields: [field] },
        });
      }
      // It exists but cannot be resolved: a symlink whose target is missing. Where it
      // would lead cannot be checked, so it is refused.
      if (exists) throw outside(input, field, root, 'goes through a symlink whose target does not exist');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = dirname(current);
      if (parent === current) return current;
      current = parent;
    }
  }
}

function inGit(input: string, field: string): ColonyError {
  return new ColonyError('PATH_IGNORED', `${field} "${input}" is inside .git, which the file tools never touch`, {
    details: { [field]: input },
  });
}

function outside(input: string, field: string, root: string, why: string): ColonyError {
  return new ColonyError('PATH_OUTSIDE_REPO', `${field} "${input}" ${why} (${root})`, {
    details: { [field]: input, repo_root: root },
  });
}

export function notFound(input: string, field: string, cause?: unknown): ColonyError {
  return new ColonyError('PATH_NOT_FOUND', `${field} "${input}" does not exist`, {
    details: { [field]: input },
    ...(cause === undefined ? {} : { cause }),
  });
}
