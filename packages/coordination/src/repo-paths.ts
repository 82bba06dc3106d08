/**
 * @module repo-paths
 * One spelling of a file inside a task's repository: relative to repo_root, POSIX
 * separators, no `.` or `..` segments. Claims, drift checks and hooks all key files by
 * it, so `./src/a.ts`, `src/./a.ts` and `/abs/repo/src/a.ts` are one file. A path that
 * leaves the repository is refused with PATH_OUTSIDE_REPO.
 */
import { isAbsolute, posix, relative, resolve } from 'node:path';
import { ColonyError } from '@swarm/tools';

export function normalizeRepoPath(repoRoot: string, filePath: string): string {
  const root = resolve(repoRoot);
  const slashed = filePath.replaceAll('\\', '/');
  const absolute = isAbsolute(slashed) ? resolve(slashed) : resolve(root, slashed);
  const rel = relative(root, absolute).split(/[\\/]/).join('/');
  if (rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel)) {
    throw new ColonyError('PATH_OUTSIDE_REPO', `file_path "${filePath}" is not a file inside ${root}`, {
      details: { file_path: filePath, repo_root: root },
    });
  }
  return posix.normalize(rel);
}
