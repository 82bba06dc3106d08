/**
 * @module repo-root
 * `--repo-root` of the commands about one repository's examples: the path given
 * (relative ones resolve), else the git repository around the current directory,
 * else the current directory.
 */
import { resolve } from 'node:path';
import { locateRepo } from '@swarm/core';

export const repoRootArg = {
  'repo-root': {
    type: 'string',
    description: 'Repository root (default: the git repository of the current directory)',
    valueHint: 'path',
  },
} as const;

export async function resolveRepoRoot(given: string | undefined): Promise<string> {
  if (given !== undefined) return resolve(given);
  const cwd = process.cwd();
  return (await locateRepo(cwd))?.root ?? cwd;
}
