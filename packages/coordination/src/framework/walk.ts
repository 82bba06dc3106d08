/**
 * @module framework/walk
 * Walks a workspace folder the way git sees it: .git skipped, .gitignored entries
 * skipped (excluded folders are not entered at all), symlinked folders not followed,
 * symlinked files kept only when they resolve to a file inside the workspace.
 * Entries come sorted per folder, so answers are stable.
 */
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isDotGit, touchesDotGit } from './dot-git';
import type { Workspace } from './workspace';

/** Entries a single walk may visit before it stops and says it was cut short. */
export const MAX_WALK_ENTRIES = 200_000;

export interface WalkState {
  visited: number;
  /** Set when the walk stopped at its entry cap. */
  truncated: boolean;
  /** Most entries to visit (default MAX_WALK_ENTRIES). */
  readonly maxEntries?: number;
  /** Folder names never entered, beside `.git` (e.g. node_modules). */
  readonly skipDirs?: ReadonlySet<string>;
}

/** Workspace-relative paths of the files under `dir` ('' for the root). */
export function* walkFiles(ws: Workspace, dir: string, state: WalkState): Generator<string> {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir === '' ? ws.root : join(ws.root, dir), { withFileTypes: true });
  } catch {
    return; // unreadable folder: nothing to list
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (++state.visited > (state.maxEntries ?? MAX_WALK_ENTRIES)) {
      state.truncated = true;
      return;
    }
    if (isDotGit(entry.name)) continue;
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (state.skipDirs?.has(entry.name)) continue;
      if (!ws.gitignore.ignoredEntry(rel, true)) yield* walkFiles(ws, rel, state);
      if (state.truncated) return;
    } else if (entry.isFile() || (entry.isSymbolicLink() && linksToFileInside(ws, rel))) {
      if (!ws.gitignore.ignoredEntry(rel, false)) yield rel;
    }
  }
}

function linksToFileInside(ws: Workspace, rel: string): boolean {
  try {
    const abs = join(ws.root, rel);
    const real = realpathSync(abs);
    const inside = real.startsWith(ws.root + sep) && !touchesDotGit(relative(ws.root, real).split(sep).join('/'));
    return inside && statSync(real).isFile();
  } catch {
    return false;
  }
}
