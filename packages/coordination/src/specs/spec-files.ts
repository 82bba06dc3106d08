/**
 * @module specs/spec-files
 * Where a repository's spec files live, confinement to repo_root, and the file
 * operations the spec service uses, passed in so tests can inject failures.
 *
 *   <repo_root>/SPEC.md                                root spec
 *   <repo_root>/openspec/changes/<slug>/CHANGE.md      in-flight change
 *   <repo_root>/openspec/changes/<slug>/base.SPEC.md   SPEC.md as the change opened on
 *   <repo_root>/openspec/archive/<YYYY-MM-DD>-<slug>/  archived change
 */
import * as nodeFs from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ColonyError } from '@swarm/tools';
import { type FileRoots, requireRoot } from '../roots';

export const SPEC_FILE = 'SPEC.md';
export const CHANGE_FILE = 'CHANGE.md';
export const BASE_FILE = 'base.SPEC.md';
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The file operations a spec service performs (node:fs by default). */
export interface SpecFileOps {
  readFile(path: string): string | null;
  writeFile(path: string, data: string): void;
  rename(from: string, to: string): void;
  mkdir(path: string): void;
  remove(path: string): void;
  exists(path: string): boolean;
  list(path: string): string[];
}

export const nodeFileOps: SpecFileOps = {
  readFile(path) {
    try {
      return nodeFs.readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  },
  writeFile: (path, data) => nodeFs.writeFileSync(path, data, 'utf8'),
  rename: (from, to) => nodeFs.renameSync(from, to),
  mkdir: (path) => nodeFs.mkdirSync(path, { recursive: true }),
  remove: (path) => nodeFs.rmSync(path, { recursive: true, force: true }),
  exists: (path) => nodeFs.existsSync(path),
  list: (path) => {
    try {
      return nodeFs.readdirSync(path);
    } catch {
      return [];
    }
  },
};

export interface SpecPaths {
  readonly root: string;
  readonly spec: string;
  readonly changes: string;
  readonly archive: string;
  changeDir(slug: string): string;
  changeFile(slug: string): string;
  baseFile(slug: string): string;
}

/**
 * The spec paths of a repository; repo_root must be an existing directory under a root
 * the server allows (`roots`, ROOT_NOT_ALLOWED otherwise).
 */
export function specPaths(repoRoot: string, roots?: FileRoots): SpecPaths {
  requireRoot(roots, repoRoot);
  const root = resolve(repoRoot);
  let isDir = false;
  try {
    isDir = nodeFs.statSync(root).isDirectory();
  } catch {}
  if (!isDir) {
    throw new ColonyError('INVALID_PARAMETERS', `repo_root ${root} is not a directory`, {
      details: { fields: ['repo_root'], repo_root: root },
    });
  }
  const changes = join(root, 'openspec', 'changes');
  return {
    root,
    spec: join(root, SPEC_FILE),
    changes,
    archive: join(root, 'openspec', 'archive'),
    changeDir: (slug) => join(changes, slug),
    changeFile: (slug) => join(changes, slug, CHANGE_FILE),
    baseFile: (slug) => join(changes, slug, BASE_FILE),
  };
}

/**
 * Refuses a path that resolves outside repo_root, following symlinks of the part that
 * exists (an `openspec` linked elsewhere must not receive writes).
 */
export function confine(root: string, path: string): string {
  const realRoot = nodeFs.realpathSync(root);
  let existing = path;
  while (!nodeFs.existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const real = nodeFs.existsSync(existing) ? nodeFs.realpathSync(existing) : existing;
  const rel = relative(realRoot, real);
  if (rel === '..' || rel.startsWith(`..${'/'}`) || rel.startsWith('..\\') || isAbsolute(rel)) {
    throw new ColonyError('PATH_OUTSIDE_REPO', `${path} resolves outside ${root}`, {
      details: { path, repo_root: root },
    });
  }
  return path;
}

export function requireSlug(slug: string): string {
  if (!SLUG.test(slug) || slug.length > 100) {
    throw new ColonyError('INVALID_PARAMETERS', `slug "${slug}" must be kebab-case (a-z, 0-9, single dashes)`, {
      details: { fields: ['slug'], slug },
    });
  }
  return slug;
}

/** The archive folder name for a change archived at `now`: `<YYYY-MM-DD>-<slug>`. */
export function archiveName(slug: string, now: number): string {
  return `${new Date(now).toISOString().slice(0, 10)}-${slug}`;
}
