/** Real git repositories in temp dirs for the tests. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  }).trim();
}

/** A repository with one commit on `main`; `cleanup()` removes it. */
export function tempRepo(): { root: string; cleanup: () => void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'colony-wt-')));
  sh(root, 'init', '-q', '-b', 'main');
  writeFileSync(join(root, 'README.md'), 'hello\n');
  sh(root, 'add', '-A');
  sh(root, 'commit', '-q', '-m', 'init');
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A `tempRepo()` maker for one test file: each repository it made is removed after each test. */
export function tempRepos(): () => { root: string; cleanup: () => void } {
  const made: { cleanup: () => void }[] = [];
  afterEach(() => {
    for (const r of made.splice(0)) r.cleanup();
  });
  return () => {
    const r = tempRepo();
    made.push(r);
    return r;
  };
}
