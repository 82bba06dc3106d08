/**
 * @module sandbox/git-dirs
 * The git folders a linked worktree writes to when it commits, which lie outside it:
 * its own folder (`.git/worktrees/<name>`: HEAD, index) and the common folder (objects,
 * refs). `<worktree>/.git` is a file `gitdir: <path>` in a linked worktree; a plain
 * `.git` folder is inside the worktree already and needs nothing.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

export function worktreeGitDirs(worktree: string): string[] {
  const dotGit = resolve(worktree, '.git');
  try {
    if (!statSync(dotGit).isFile()) return [];
    const line = readFileSync(dotGit, 'utf8')
      .match(/^gitdir:\s*(.+)$/m)?.[1]
      ?.trim();
    if (!line) return [];
    const gitDir = isAbsolute(line) ? line : resolve(worktree, line);
    const common = readOptional(resolve(gitDir, 'commondir'));
    return common ? [gitDir, resolve(gitDir, common)] : [gitDir];
  } catch {
    return [];
  }
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch {
    return null;
  }
}
