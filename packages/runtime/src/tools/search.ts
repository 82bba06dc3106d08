/**
 * @module tools/search
 * glob { pattern } and grep { pattern, path?, glob? } on the agent's worktree (never
 * `.git`, never through symbolic links). Results are capped so a wide pattern cannot
 * flood the context.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { confine } from './_confine.js';
import { ToolInputError } from './files.js';

const MAX_FILES = 500;
const MAX_MATCHES = 200;
const MAX_GREP_FILE_BYTES = 1024 * 1024;

function listFiles(worktree: string, cwdRel: string, pattern: string): string[] {
  if (pattern.split(/[\\/]/).includes('..')) throw new ToolInputError('pattern uses "..": refused');
  const cwd = cwdRel === '' ? worktree : join(worktree, cwdRel);
  return globSync(pattern, { cwd, dot: true, followSymbolicLinks: false, ignore: ['.git/**', '**/.git/**'] })
    .map((p) => (cwdRel === '' ? p : `${cwdRel}/${p}`))
    .sort();
}

export function globTool(worktree: string, input: { pattern: string }): string {
  const root = confine(worktree, '.').absolute;
  const files = listFiles(root, '', input.pattern);
  if (files.length === 0) return `no files match ${input.pattern}`;
  const shown = files.slice(0, MAX_FILES).join('\n');
  return files.length > MAX_FILES ? `${shown}\n(${files.length} files; first ${MAX_FILES} shown)` : shown;
}

export function grepTool(worktree: string, input: { pattern: string; path?: string; glob?: string }): string {
  let regex: RegExp;
  try {
    regex = new RegExp(input.pattern);
  } catch (error) {
    throw new ToolInputError(`invalid pattern: ${(error as Error).message}`);
  }
  const root = confine(worktree, '.').absolute;
  const target = input.path ? confine(worktree, input.path) : { absolute: root, relative: '' };
  const files = statSync(target.absolute, { throwIfNoEntry: false })?.isFile()
    ? [target.relative]
    : listFiles(root, target.relative, input.glob ?? '**/*');
  const matches: string[] = [];
  for (const file of files) {
    const abs = join(root, file);
    const stat = statSync(abs, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size > MAX_GREP_FILE_BYTES) continue;
    const text = readFileSync(abs, 'utf8');
    if (text.includes('\0')) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length && matches.length < MAX_MATCHES; i++) {
      if (regex.test(lines[i]!)) matches.push(`${file}:${i + 1}:${lines[i]!.slice(0, 500)}`);
    }
    if (matches.length >= MAX_MATCHES) break;
  }
  if (matches.length === 0) return `no matches for ${input.pattern}`;
  return matches.length >= MAX_MATCHES ? `${matches.join('\n')}\n(first ${MAX_MATCHES} matches)` : matches.join('\n');
}
