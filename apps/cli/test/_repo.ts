/**
 * Test helpers for commands about a repository: git run in a folder (with an author
 * set), and reading a database the CLI processes wrote, through @swarm/storage.
 */
import { execFileSync } from 'node:child_process';
import { openStore, type Store } from '@swarm/storage';

export function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}

/** Opens the database at `path`, runs `fn` on it, closes it. */
export function readDb<T>(path: string, fn: (store: Store) => T): T {
  const store = openStore({ path });
  try {
    return fn(store);
  } finally {
    store.close();
  }
}
