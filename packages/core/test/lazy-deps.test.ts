/**
 * The libraries only a few tools need (YAML, TOML, globs, RE2, gitignore rules, diff3)
 * load on their first use (coordination `_lazy-deps.ts`): a colony whose calls are a
 * thread and a post never loads them. Checked on the BUILT dist in a child process, by
 * both ways a module can come in: an ES import (a loader hook records it) and a
 * CommonJS require (the module cache holds it: a `createRequire` load lands there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvedBy } from '../../../test/support/resolved-modules';

const CORE = fileURLToPath(new URL('..', import.meta.url));
const LAZY = ['yaml', 'smol-toml', 'picomatch', 're2js', 'ignore', 'node-diff3'];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs a thread and a post (then `more`, an ES module body) in a child; answers the lazy libraries it loaded. */
function loadedAfter(more: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'colony-lazy-'));
  dirs.push(dir);
  const code = `import { createRequire } from 'node:module';
const { openColony } = await import('@swarm/core');
const colony = openColony({ home: ${JSON.stringify(join(dir, 'home'))}, dbPath: ${JSON.stringify(join(dir, 'c.db'))}, receipts: false });
const thread = await colony.handleToolCall('task_thread', { repo_root: ${JSON.stringify(dir)}, branch: 'main', session_id: 's1', agent: 'codex' });
const task_id = JSON.parse(thread.text).task_id;
const post = await colony.handleToolCall('task_post', { task_id, session_id: 's1', kind: 'note', content: 'a note' });
if (!post.ok) throw new Error(post.text);
${more}
const names = Object.keys(createRequire(import.meta.url).cache)
  .map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file.split('node_modules/.pnpm/').pop() ?? '')?.[1])
  .filter(Boolean);
console.log(JSON.stringify([...new Set(names)]));
colony.close();`;
  const child = resolvedBy(code, CORE);
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  const required = JSON.parse(child.stdout.trim().split('\n').pop() as string) as string[];
  const imported = child.urls.map((url) => packageOf(url)).filter((name) => name !== undefined);
  return [...new Set([...required, ...imported])].filter((name) => LAZY.includes(name)).sort();
}

/** The npm package a resolved URL belongs to (its last `node_modules/` segment). */
function packageOf(url: string): string | undefined {
  const tail = url.split('/node_modules/').slice(1).pop();
  return tail === undefined ? undefined : /^((?:@[^/]+\/)?[^/]+)\//.exec(tail)?.[1];
}

describe('libraries loaded on first use', () => {
  it('a thread and a post load none of them', () => {
    expect(loadedAfter('')).toEqual([]);
  });

  it('the check sees one loaded: parsing a workflow loads yaml, and only it', () => {
    const parse = `const { parseWorkflow } = await import('@swarm/coordination');
if (!parseWorkflow('name: w\\nstages: []\\n', 'w')) throw new Error('no answer');`;
    expect(loadedAfter(parse)).toEqual(['yaml']);
  });
});
