/**
 * @module roots
 * Which folders the file tools may read and write under. Over MCP the model chooses
 * `repo_root`, so confinement to repo_root alone is the caller's choice; the server
 * decides instead: the roots the client declares (MCP roots/list) when it declares
 * any, else the repository of the server's working directory, plus the roots allowed
 * at start (`--root`, settings `roots`, openColony's `roots`). A repo_root outside all
 * of them is ROOT_NOT_ALLOWED. Tools that only use repo_root as a key (threads,
 * claims) never ask. Roots are compared by real path, so a symlink cannot widen them.
 */

import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ColonyError } from '@swarm/tools';

export interface FileRootsOptions {
  /** Roots allowed whatever the client declares (`--root`, settings). */
  readonly fixed?: readonly string[];
  /** Used when the client declares no roots; default: the repository of the cwd. */
  readonly fallback?: readonly string[];
}

export class FileRoots {
  readonly #fixed: readonly string[];
  readonly #fallback: readonly string[];
  #client: readonly string[] | undefined;

  constructor(options: FileRootsOptions = {}) {
    this.#fixed = (options.fixed ?? []).map((r) => resolve(r));
    this.#fallback = (options.fallback ?? [repositoryOf(process.cwd())]).map((r) => resolve(r));
  }

  /** The roots the MCP client declared (`file://` URIs or paths); undefined: none declared. */
  setClientRoots(roots: readonly string[] | undefined): void {
    this.#client = roots?.map((r) => resolve(r.startsWith('file://') ? fileURLToPath(r) : r));
  }

  /** Every root files may be read or written under, as configured (not yet real paths). */
  list(): string[] {
    return [...new Set([...(this.#client && this.#client.length > 0 ? this.#client : this.#fallback), ...this.#fixed])];
  }

  /** Refuses a repo_root outside every allowed root (ROOT_NOT_ALLOWED). */
  require(repoRoot: string, field = 'repo_root'): void {
    const real = realOrSelf(resolve(repoRoot));
    for (const root of this.list()) {
      const rel = relative(realOrSelf(root), real);
      if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return;
    }
    throw new ColonyError(
      'ROOT_NOT_ALLOWED',
      `${field} ${repoRoot} is not under a root this server allows (${this.list().join(', ')}): start it with --root, or declare the root from the MCP client`,
      { details: { [field]: repoRoot, allowed_roots: this.list() } },
    );
  }
}

/** Confines `repoRoot` when the context carries roots (library contexts built without them are not). */
export function requireRoot(roots: FileRoots | undefined, repoRoot: string, field = 'repo_root'): void {
  roots?.require(repoRoot, field);
}

/** The nearest folder at or above `dir` holding `.git`, else `dir` itself. */
export function repositoryOf(dir: string): string {
  let current = resolve(dir);
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return resolve(dir);
    current = parent;
  }
}

function realOrSelf(path: string): string {
  try {
    return statSync(path) && realpathSync(path);
  } catch {
    return path;
  }
}
