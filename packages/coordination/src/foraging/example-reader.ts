/**
 * @module foraging/example-reader
 * Reads one example folder the way git sees it (.gitignore respected, .git,
 * node_modules and other build/vendor folders skipped, symlinked folders not
 * followed, symlinked files kept only when they resolve inside the repository),
 * within caps: entries visited, files listed, bytes read per file. Only the manifest,
 * the README and the entrypoints are read, and only their first bytes; binary files
 * (a NUL byte, or a binary extension) are never read.
 */
import { closeSync, lstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { exampleName } from '@swarm/tools';
import { walkFiles } from '../framework/walk';
import type { Workspace } from '../framework/workspace';
import { type Manifest, type ManifestReader, readManifest } from './manifests';

/** Example folders one scan indexes at most (by name); the rest are reported as skipped. */
export const MAX_EXAMPLES = 200;
/** Entries one example walk visits at most. */
export const MAX_EXAMPLE_ENTRIES = 5_000;
/** Files of one example listed at most. */
export const MAX_EXAMPLE_FILES = 1_000;
/** Largest manifest read, in bytes. */
export const MAX_MANIFEST_BYTES = 512 * 1024;
/** Bytes of a README or entrypoint read for its excerpt. */
export const EXCERPT_BYTES = 8 * 1024;
/** Entrypoints read per example. */
export const MAX_ENTRYPOINTS = 3;

export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  'target',
  '.next',
  '.turbo',
  '.cache',
  'vendor',
]);

const BINARY_EXT =
  /\.(png|jpe?g|gif|webp|ico|bmp|pdf|zip|gz|tgz|bz2|xz|7z|tar|jar|class|wasm|so|dylib|dll|exe|bin|woff2?|ttf|otf|eot|mp[34]|mov|avi|sqlite|db|pyc)$/i;

/** Where entrypoints usually are, when the manifest names none that exist. */
const CONVENTIONAL_ENTRYPOINTS = [
  'src/index.ts',
  'src/index.tsx',
  'src/index.js',
  'src/main.ts',
  'src/main.js',
  'index.ts',
  'index.js',
  'server.ts',
  'server.js',
  'app.ts',
  'app.js',
  'main.py',
  'app.py',
  'src/main.py',
  '__main__.py',
  'manage.py',
  'src/main.rs',
  'src/lib.rs',
  'main.go',
  'index.html',
];

/** An example folder a scan left out, and why. */
export interface SkippedExample {
  readonly example_name: string;
  readonly reason: string;
}

export interface ExampleFile {
  /** Relative to the example folder. */
  readonly path: string;
  readonly size: number;
  readonly binary: boolean;
}

export interface Entrypoint {
  readonly path: string;
  readonly excerpt: string;
  /** Why it counts as one: the manifest named it, or it sits where entrypoints usually are. */
  readonly source: 'manifest' | 'conventional';
}

export interface ExampleSnapshot {
  readonly name: string;
  /** Repo-relative folder, `examples/<name>`. */
  readonly dir: string;
  readonly manifest: Manifest;
  readonly files: ExampleFile[];
  readonly entrypoints: Entrypoint[];
  readonly readme: { path: string; excerpt: string } | null;
  /** Set when the walk stopped at a cap: the file list is partial. */
  readonly truncated: boolean;
}

type Head = { text: string; size: number } | { text: null; reason: string };

/** The first `maxBytes` of a file as UTF-8 text; null (with why) for a missing, binary or oversized one. */
function readHead(abs: string, maxBytes: number, wholeOnly: boolean): Head {
  let fd: number | undefined;
  try {
    const size = statSync(abs).size;
    if (wholeOnly && size > maxBytes) return { text: null, reason: `larger than ${maxBytes} bytes` };
    fd = openSync(abs, 'r');
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, read);
    if (bytes.includes(0)) return { text: null, reason: 'binary' };
    return { text: bytes.toString('utf8'), size };
  } catch (error) {
    return { text: null, reason: (error as NodeJS.ErrnoException).code ?? 'unreadable' };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whitespace-trimmed, at most `chars` characters (cut at a line end when one is near). */
export function excerptOf(text: string, chars: number): string {
  const trimmed = text
    .replace(/\r\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (trimmed.length <= chars) return trimmed;
  const cut = trimmed.slice(0, chars);
  const line = cut.lastIndexOf('\n');
  return `${line > chars / 2 ? cut.slice(0, line) : cut}\n…`;
}

/** Reads `examples/<name>` of the workspace (its real-path root). */
export function readExample(ws: Workspace, name: string): ExampleSnapshot {
  const dir = `examples/${name}`;
  const state = { visited: 0, truncated: false, maxEntries: MAX_EXAMPLE_ENTRIES, skipDirs: SKIPPED_DIRS };
  const files: ExampleFile[] = [];
  for (const repoRel of walkFiles(ws, dir, state)) {
    if (files.length >= MAX_EXAMPLE_FILES) {
      state.truncated = true;
      break;
    }
    const path = repoRel.slice(dir.length + 1);
    let size = 0;
    try {
      size = statSync(join(ws.root, repoRel)).size;
    } catch {
      continue; // vanished while walking
    }
    files.push({ path, size, binary: BINARY_EXT.test(path) });
  }
  const byPath = new Map(files.map((f) => [f.path, f]));
  const abs = (path: string) => join(ws.root, dir, path);
  const read: ManifestReader = (path) => {
    const file = byPath.get(path);
    if (!file) return { text: null, reason: 'not found' };
    const head = readHead(abs(path), MAX_MANIFEST_BYTES, true);
    return head.text === null ? head : { text: head.text };
  };
  const topLevel = new Set(files.filter((f) => !f.path.includes('/')).map((f) => f.path));
  const manifest = readManifest(topLevel, read);
  const excerpt = (path: string, chars: number): string | null => {
    const file = byPath.get(path);
    if (!file || file.binary) return null;
    const head = readHead(abs(path), EXCERPT_BYTES, false);
    return head.text === null ? null : excerptOf(head.text, chars);
  };
  const entrypoints: Entrypoint[] = [];
  const seen = new Set<string>();
  for (const [path, source] of [
    ...manifest.entryHints.map((p) => [posix.normalize(p), 'manifest'] as const),
    ...CONVENTIONAL_ENTRYPOINTS.map((p) => [p, 'conventional'] as const),
    ...files.filter((f) => /^cmd\/[^/]+\/main\.go$/.test(f.path)).map((f) => [f.path, 'conventional'] as const),
  ]) {
    if (entrypoints.length >= MAX_ENTRYPOINTS || seen.has(path)) continue;
    seen.add(path);
    const text = excerpt(path, 1_200);
    if (text !== null) entrypoints.push({ path, excerpt: text, source });
  }
  const readmeFile = files.find((f) => /^readme(\.(md|markdown|rst|txt))?$/i.test(f.path));
  const readmeText = readmeFile ? excerpt(readmeFile.path, 1_500) : null;
  return {
    name,
    dir,
    manifest,
    files,
    entrypoints,
    readme: readmeFile && readmeText !== null ? { path: readmeFile.path, excerpt: readmeText } : null,
    truncated: state.truncated,
  };
}

/** A folder name the example tools accept (the contract's own check). */
const PLAIN_NAME = (name: string) => exampleName.safeParse(name).success;

/** The plain, real (not symlinked), not .gitignored folders of <root>/examples, by name, capped. */
export function exampleFolders(ws: Workspace): { names: string[]; skipped: SkippedExample[] } {
  const skipped: SkippedExample[] = [];
  let dir: string;
  try {
    dir = ws.resolve('examples', 'examples').abs;
    if (!lstatSync(dir).isDirectory() || ws.ignored('examples', true)) return { names: [], skipped };
  } catch {
    return { names: [], skipped }; // no examples folder, or one leading out of the repository
  }
  const names: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isSymbolicLink()) {
      if (isDirectory(join(dir, entry.name)))
        skipped.push({ example_name: entry.name, reason: 'symlinked folder (not followed)' });
      continue;
    }
    if (!entry.isDirectory() || ws.gitignore.ignoredEntry(`examples/${entry.name}`, true)) continue;
    if (!PLAIN_NAME(entry.name)) skipped.push({ example_name: entry.name, reason: 'not a plain folder name' });
    else if (names.length >= MAX_EXAMPLES)
      skipped.push({ example_name: entry.name, reason: `over the cap of ${MAX_EXAMPLES} examples` });
    else names.push(entry.name);
  }
  return { names, skipped };
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
