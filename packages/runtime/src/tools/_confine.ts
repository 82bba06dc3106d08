/**
 * @module tools/_confine
 * Keeps an agent's file tools inside its worktree: a path is taken relative to the
 * worktree (an absolute path must already be inside it), `..` segments are refused
 * outright, and so is any symbolic link on the way (the target or a folder above it),
 * so nothing an agent names can reach outside. `.git` is refused too (the worktree's
 * git link is not the agent's to edit).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export class ConfinementError extends Error {}

export interface ConfinedPath {
  /** Absolute path inside the worktree. */
  readonly absolute: string;
  /** Relative to the worktree, `/`-separated. */
  readonly relative: string;
}

export function confine(worktree: string, path: string): ConfinedPath {
  if (typeof path !== 'string' || path.trim() === '') throw new ConfinementError('path is required');
  if (path.includes('\0')) throw new ConfinementError('path holds a NUL byte');
  if (path.split(/[\\/]/).includes('..')) throw new ConfinementError(`path ${path} uses "..": refused`);
  const root = realpathSync(worktree);
  const absolute = isAbsolute(path) ? resolve(path) : resolve(root, path);
  const rel = relative(root, absolute);
  const base = relative(resolve(worktree), absolute);
  const inside = (r: string) => r === '' || (!r.startsWith('..') && !isAbsolute(r));
  const chosen = inside(rel) ? rel : inside(base) ? base : null;
  if (chosen === null) throw new ConfinementError(`path ${path} is outside the worktree`);
  const parts = chosen === '' ? [] : chosen.split(sep);
  if (parts[0] === '.git') throw new ConfinementError(`path ${path} is inside .git: refused`);
  let walk = root;
  for (const part of parts) {
    walk = join(walk, part);
    try {
      if (lstatSync(walk).isSymbolicLink())
        throw new ConfinementError(`path ${path} goes through a symbolic link: refused`);
    } catch (error) {
      if (error instanceof ConfinementError) throw error;
      break; // does not exist yet: nothing further can be a link
    }
  }
  return { absolute: join(root, ...parts), relative: parts.join('/') };
}
