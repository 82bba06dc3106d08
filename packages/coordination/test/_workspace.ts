/**
 * Test workspace builder: a small repository on disk with a .gitignore, a nested
 * .gitignore, a .git folder, and a folder outside it that symlinks point at.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Fixture } from './_fixture';

export interface TestWorkspace {
  readonly root: string;
  /** A folder beside the workspace holding secret.txt. */
  readonly outside: string;
  write(rel: string, content: string): void;
}

export const FILES: Readonly<Record<string, string>> = {
  '.gitignore': 'node_modules/\n*.log\n.env\n',
  'README.md': '# demo\n',
  'src/main.py': 'import os\n\ndef main():\n    print("hi")\n',
  'src/util.py': 'def helper():\n    return 1\n',
  'src/app.ts': 'export function main(): void {}\n',
  'docs/guide.md': 'Run main to start.\n',
  'pkg/.gitignore': 'gen/\n!keep.log\n',
  'pkg/keep.log': 'kept despite *.log\n',
  'pkg/gen/out.py': 'def main(): generated\n',
  'pkg/lib.py': 'def main(): lib\n',
  'node_modules/dep/index.js': 'function main() {}\n',
  'debug.log': 'def main(): in a log\n',
  '.env': 'TOKEN=secret\n',
  '.git/config': '[core]\n',
};

export function createWorkspace(fx: Fixture, name = 'repo'): TestWorkspace {
  const root = fx.repo(name);
  const outside = fx.repo(`${name}-outside`);
  const write = (rel: string, content: string) => {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };
  for (const [rel, content] of Object.entries(FILES)) write(rel, content);
  writeFileSync(join(outside, 'secret.txt'), 'outside secret\n');
  symlinkSync(outside, join(root, 'link-out'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-secret.txt'));
  symlinkSync(join(outside, 'missing.txt'), join(root, 'dangling.txt'));
  symlinkSync(join(root, 'src', 'main.py'), join(root, 'link-main.py'));
  return { root, outside, write };
}
