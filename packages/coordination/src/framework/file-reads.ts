/**
 * @module framework/file-reads
 * The read-only seed-000 file tools: fs_list, fs_read, search_text. Everything they
 * touch goes through the workspace's confinement (framework/workspace.ts) and its
 * .gitignore rules; none of them writes anything.
 */

import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import type {
  FsListInput,
  FsListResult,
  FsReadInput,
  FsReadResult,
  SearchTextInput,
  SearchTextResult,
  TextMatch,
} from '@swarm/tools';
import { ColonyError } from '@swarm/tools';
import { globs, re2 } from '../_lazy-deps';
import { type WalkState, walkFiles } from './walk';
import { notFound, Workspace, type WorkspacePath } from './workspace';

/** Files search_text skips as too large to scan. */
export const MAX_SEARCH_FILE_BYTES = 1024 * 1024;
/** Bytes one search scans before it stops and says so. */
export const MAX_SEARCH_TOTAL_BYTES = 64 * 1024 * 1024;
const MATCH_TEXT_CHARS = 200;
/** How far into a file a NUL byte marks it binary (git looks at the same 8000). */
const BINARY_SNIFF_BYTES = 8000;

export function listFiles(args: FsListInput): FsListResult {
  const ws = Workspace.open(args.repo_root);
  const dir = openDir(ws, args.dir);
  const matches = pathMatcher(args.pattern);
  const state: WalkState = { visited: 0, truncated: false };
  const files: string[] = [];
  for (const rel of walkFiles(ws, dir.rel, state)) {
    if (!matches(dir.rel === '' ? rel : rel.slice(dir.rel.length + 1))) continue;
    if (files.length === args.max_results) {
      state.truncated = true;
      break;
    }
    files.push(rel);
  }
  return { files, count: files.length, ...(state.truncated ? { truncated: true as const } : {}) };
}

export function readFile(args: FsReadInput): FsReadResult {
  const ws = Workspace.open(args.repo_root);
  const path = ws.resolve(args.path);
  const real = requireFile(ws, path, args.path);
  const { buffer, size } = readPrefix(real, args.max_bytes);
  const base = { path: path.rel };
  if (isBinary(buffer)) return { ...base, bytes: 0, content: '', binary: true };
  const content = utf8Prefix(buffer, size > buffer.length);
  const bytes = Buffer.byteLength(content);
  return size > buffer.length ? { ...base, bytes, content, truncated: true, size } : { ...base, bytes, content };
}

export function searchFiles(args: SearchTextInput): SearchTextResult {
  const ws = Workspace.open(args.repo_root);
  const dir = openDir(ws, args.dir);
  const regex = compile(args.pattern, 'pattern');
  const state: WalkState = { visited: 0, truncated: false };
  const matches: TextMatch[] = [];
  let scanned = 0;
  outer: for (const file of walkFiles(ws, dir.rel, state)) {
    const text = readSmallText(`${ws.root}/${file}`);
    if (text === undefined) continue;
    scanned += text.length;
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i]!)) continue;
      if (matches.length === args.max_matches) {
        state.truncated = true;
        break outer;
      }
      matches.push({ file, line: i + 1, text: lines[i]!.slice(0, MATCH_TEXT_CHARS) });
    }
    if (scanned >= MAX_SEARCH_TOTAL_BYTES) {
      state.truncated = true;
      break;
    }
  }
  return { matches, count: matches.length, ...(state.truncated ? { truncated: true as const } : {}) };
}

/** Resolves `dir` to an existing, not ignored folder of the workspace. */
function openDir(ws: Workspace, input: string): WorkspacePath {
  const dir = ws.resolve(input, 'dir');
  let isDir = false;
  try {
    isDir = statSync(dir.abs).isDirectory();
  } catch {
    // missing: refused below
  }
  if (!isDir) throw notFound(input, 'dir');
  ws.requireNotIgnored(dir, true, input, 'dir');
  return dir;
}

/** The real path of an existing, not ignored file of the workspace. */
export function requireFile(ws: Workspace, path: WorkspacePath, input: string): string {
  let real: string;
  try {
    real = realpathSync(path.abs);
  } catch (error) {
    throw notFound(input, 'path', error);
  }
  if (!statSync(real).isFile()) {
    throw new ColonyError('PATH_NOT_FOUND', `path "${input}" is not a file`, { details: { path: input } });
  }
  ws.requireNotIgnored(path, false, input);
  return real;
}

/** A glob (picomatch; without "/", it matches the file name at any depth) or `regex:<expr>`. */
function pathMatcher(pattern: string | undefined): (rel: string) => boolean {
  if (pattern === undefined) return () => true;
  if (pattern.startsWith('regex:')) {
    const regex = compile(pattern.slice('regex:'.length), 'pattern');
    return (rel) => regex.test(rel);
  }
  return globs()(pattern, { dot: true, basename: !pattern.includes('/') });
}

/** What a pattern needs to do here: say whether it matches somewhere in a line or path. */
interface LinePattern {
  test(text: string): boolean;
}

/**
 * Agents' patterns run on RE2 (re2js): matching is linear in the input, so a pattern
 * such as `(a+)+$` cannot stall the server the way a backtracking RegExp would. RE2
 * has no lookaround or backreferences; such a pattern is refused as invalid.
 */
function compile(source: string, field: string): LinePattern {
  try {
    return re2().RE2JS.compile(source);
  } catch (error) {
    throw new ColonyError(
      'INVALID_PARAMETERS',
      `${field}: invalid regular expression (RE2 syntax): ${(error as Error).message}`,
      { details: { fields: [field] } },
    );
  }
}

function readPrefix(real: string, maxBytes: number): { buffer: Buffer; size: number } {
  // The real path has no symlink left in it; O_NOFOLLOW keeps it that way until open.
  const fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { buffer: buffer.subarray(0, filled), size };
  } finally {
    closeSync(fd);
  }
}

/** Text of a file small enough to search, or undefined for large, binary or unreadable ones. */
function readSmallText(abs: string): string | undefined {
  try {
    const { buffer, size } = readPrefix(realpathSync(abs), MAX_SEARCH_FILE_BYTES + 1);
    if (size > MAX_SEARCH_FILE_BYTES || isBinary(buffer)) return undefined;
    return buffer.toString('utf8');
  } catch {
    return undefined;
  }
}

function isBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Decodes UTF-8; when cut, drops a trailing partial character instead of mangling it. */
function utf8Prefix(buffer: Buffer, cut: boolean): string {
  if (!cut) return buffer.toString('utf8');
  let end = buffer.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 3 && (buffer[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = buffer[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < need) end -= back + 1;
  }
  return buffer.subarray(0, end).toString('utf8');
}
