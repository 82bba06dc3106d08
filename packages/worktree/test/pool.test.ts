/**
 * The recycled-worktree pool against real repositories: a pooled worktree equals a
 * fresh checkout, leaves nothing of its last user, is a real locked worktree on the
 * right branch, is never listed as a workspace, and is handed out once even to two
 * processes forking at the same time (those use the BUILT package: `pnpm build` first).
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  colonyWorktrees,
  destroyWorkspace,
  forkWorkspaces,
  forkWorktree,
  listWorkspaces,
  listWorktrees,
  openRepo,
  poolCapacity,
  poolSlots,
  prunePool,
  type Repo,
  releaseWorktree,
  resolveWorkspace,
  workspaceLayout,
} from '../src/index';
import { sh, tempRepo } from './_repo';

const repos: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});
async function repo(): Promise<{ root: string; r: Repo }> {
  const made = tempRepo();
  repos.push(made);
  writeFileSync(join(made.root, '.gitignore'), '*.log\n');
  mkdirSync(join(made.root, 'src'));
  writeFileSync(join(made.root, 'src', 'a.txt'), 'a\n');
  writeFileSync(join(made.root, 'src', 'gone.txt'), 'gone\n');
  writeFileSync(join(made.root, 'run.sh'), '#!/bin/sh\n');
  sh(made.root, 'add', '-A');
  sh(made.root, 'commit', '-q', '-m', 'tree');
  return { root: made.root, r: await openRepo(made.root) };
}

/** Every file under `dir` but `.git`: relative path, executable bit, content. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (d === dir && e.name === '.git') continue;
      if (e.isDirectory()) walk(p);
      else out.push(`${relative(dir, p)} ${statSync(p).mode & 0o111 ? 'x' : '-'} ${readFileSync(p, 'utf8')}`);
    }
  };
  walk(dir);
  return out.sort();
}

/** A fresh checkout of `ref` with plain git, to compare against (inside `.colony/`: removed with the repository). */
function freshCheckout(root: string, ref: string, name: string): string {
  const path = join(root, '.colony', `fresh-${name}`);
  sh(root, 'worktree', 'add', '-q', '--detach', path, ref);
  return path;
}

describe('worktree pool', () => {
  it('recycles a destroyed workspace and hands it to the next fork, equal to a fresh checkout', async () => {
    const { root, r } = await repo();
    const [first] = await forkWorkspaces(r, 'HEAD', ['one']);
    const ws1 = first?.workspace_id as string;
    // The last user leaves edits, untracked and ignored files, a nested folder and a commit.
    writeFileSync(join(ws1, 'src', 'a.txt'), 'edited\n');
    writeFileSync(join(ws1, 'notes.md'), 'untracked\n');
    writeFileSync(join(ws1, 'build.log'), 'ignored\n');
    mkdirSync(join(ws1, 'tmp', 'deep'), { recursive: true });
    writeFileSync(join(ws1, 'tmp', 'deep', 'x.log'), 'x\n');
    sh(ws1, 'commit', '-q', '-am', 'work of one');
    writeFileSync(join(ws1, 'src', 'a.txt'), 'dirty again\n');

    const gone = await destroyWorkspace(r, (await resolveWorkspace(ws1, r)) as never, true);
    expect(gone).toMatchObject({ ok: true, branch_deleted: true });
    expect(poolSlots(r)).toHaveLength(1);
    sh(root, 'worktree', 'prune');
    expect(sh(root, 'worktree', 'list', '--porcelain')).toContain(`worktree ${poolSlots(r)[0]?.path}\nHEAD`);
    expect(await colonyWorktrees(r)).toEqual([]);
    expect(await listWorkspaces(r)).toEqual([]);
    expect(sh(root, 'branch', '--list', 'colony/ws/one')).toBe('');

    // main moves on: a changed, a deleted, an added and a now-executable file.
    writeFileSync(join(root, 'src', 'a.txt'), 'a2\n');
    sh(root, 'rm', '-q', 'src/gone.txt');
    writeFileSync(join(root, 'src', 'new.txt'), 'new\n');
    chmodSync(join(root, 'run.sh'), 0o755);
    sh(root, 'add', '-A');
    sh(root, 'commit', '-q', '-m', 'main moves');
    const base = sh(root, 'rev-parse', 'HEAD');

    const [second] = await forkWorkspaces(r, 'main', ['two']);
    const ws2 = second?.workspace_id as string;
    expect(second).toMatchObject({ workspace_name: 'two', branch: 'colony/ws/two', base_commit: base });
    expect(ws2).toBe(workspaceLayout(r, 'two').path);
    expect(poolSlots(r)).toHaveLength(0);
    expect(sh(ws2, 'status', '--porcelain', '--ignored')).toBe('');
    expect(snapshot(ws2)).toEqual(snapshot(freshCheckout(root, base, 'two')));
    expect(sh(ws2, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('colony/ws/two');
    expect(sh(ws2, 'rev-parse', 'HEAD')).toBe(base);
    const listed = (await listWorktrees(r)).find((w) => w.path === ws2);
    expect(listed).toMatchObject({ branch: 'colony/ws/two', locked: true });
    expect(sh(root, 'worktree', 'list', '--porcelain')).toContain(
      `worktree ${ws2}\nHEAD ${base}\nbranch refs/heads/colony/ws/two\nlocked colony workspace two`,
    );
    sh(root, 'worktree', 'prune');
    expect(sh(root, 'worktree', 'list')).toContain(ws2);
    // The git CLI commits in it.
    writeFileSync(join(ws2, 'mine.txt'), 'mine\n');
    sh(ws2, 'add', 'mine.txt');
    sh(ws2, 'commit', '-q', '-m', 'two works');
    expect(sh(root, 'log', '-1', '--format=%s', 'colony/ws/two')).toBe('two works');
  });

  it('refuses a dirty workspace without force as before, and leaves it in place and locked', async () => {
    const { r } = await repo();
    const { path } = await forkWorktree(r, { ...workspaceLayout(r, 'dirty'), lockReason: 'colony workspace dirty' });
    writeFileSync(join(path, 'notes.md'), 'untracked\n');
    await expect(releaseWorktree(r, path)).rejects.toMatchObject({ reason: 'dirty_tree' });
    expect((await listWorktrees(r)).find((w) => w.path === path)?.locked).toBe(true);
    expect(poolSlots(r)).toHaveLength(0);
  });

  it('removes instead of pooling when the pool is full, off, or the worktree is mid-operation', async () => {
    const { root, r } = await repo();
    expect(poolCapacity({ COLONY_WORKTREE_POOL: '0' })).toBe(0);
    expect(poolCapacity({ COLONY_WORKTREE_POOL: 'lots' })).toBe(20);
    const a = await forkWorktree(r, workspaceLayout(r, 'a'));
    const mid = await forkWorktree(r, workspaceLayout(r, 'mid'));
    const gitDir = sh(mid.path, 'rev-parse', '--absolute-git-dir');
    mkdirSync(join(gitDir, 'rebase-merge'));
    expect(await releaseWorktree(r, mid.path, { force: true })).toMatchObject({ removed: true, pooled: false });
    expect(await releaseWorktree(r, a.path, { force: true })).toMatchObject({ removed: true, pooled: true });
    const taken = await forkWorktree(r, workspaceLayout(r, 'b'));
    expect(taken.pooled).toBe(true);
    // The branch exists: the pooled worktree is discarded and the fresh path reports git's refusal.
    await releaseWorktree(r, taken.path, { force: true });
    sh(root, 'branch', 'colony/ws/taken');
    await expect(forkWorktree(r, { ...workspaceLayout(r, 'c'), branch: 'colony/ws/taken' })).rejects.toThrow(
      /already exists/,
    );
    expect(poolSlots(r)).toHaveLength(0);
  });

  it('prunes slots past their age or the capacity, and empties on request', async () => {
    const { r } = await repo();
    const made = await Promise.all(['p1', 'p2', 'p3'].map((n) => forkWorktree(r, workspaceLayout(r, n))));
    for (const w of made) await releaseWorktree(r, w.path, { force: true });
    expect(poolSlots(r)).toHaveLength(3);
    expect(await prunePool(r, { capacity: 2 })).toBe(1);
    expect(poolSlots(r)).toHaveLength(2);
    expect(await prunePool(r)).toBe(0);
    expect(await prunePool(r, { all: true })).toBe(2);
    const last = await forkWorktree(r, workspaceLayout(r, 'p4'));
    await releaseWorktree(r, last.path, { force: true });
    expect(await prunePool(r)).toBe(0);
    expect(await prunePool(r, { now: Date.now() + 25 * 60 * 60 * 1000 })).toBe(1);
    expect(poolSlots(r)).toHaveLength(0);
    expect((await listWorktrees(r)).length).toBe(1);
  });

  it('hands each pooled worktree to one of two processes forking at once', async () => {
    const { root, r } = await repo();
    const names = ['s1', 's2', 's3', 's4'];
    const made = await Promise.all(names.map((n) => forkWorktree(r, workspaceLayout(r, n))));
    for (const w of made) await releaseWorktree(r, w.path, { force: true, deleteBranch: 'always' });
    expect(poolSlots(r)).toHaveLength(4);
    const dist = new URL('../dist/index.js', import.meta.url).href;
    const script = `const wt = await import(${JSON.stringify(dist)});
const repo = await wt.openRepo(process.argv[1]);
const out = await Promise.all(process.argv.slice(2).map((n) => wt.forkWorktree(repo, wt.workspaceLayout(repo, n))));
console.log(JSON.stringify(out));`;
    const run = promisify(execFile);
    const forks = await Promise.all(
      ['x', 'y'].map((p) =>
        run(process.execPath, ['--input-type=module', '-e', script, root, `${p}1`, `${p}2`, `${p}3`, `${p}4`], {
          timeout: 60_000,
        }),
      ),
    );
    const all = forks.flatMap((f) => JSON.parse(f.stdout) as { path: string; pooled: boolean }[]);
    expect(all).toHaveLength(8);
    expect(new Set(all.map((w) => w.path)).size).toBe(8);
    expect(all.filter((w) => w.pooled)).toHaveLength(4);
    expect(poolSlots(r)).toHaveLength(0);
    for (const w of all) expect(sh(w.path, 'status', '--porcelain', '--ignored')).toBe('');
    expect((await colonyWorktrees(r)).map((w) => w.workspace_name).sort()).toEqual(
      ['x1', 'x2', 'x3', 'x4', 'y1', 'y2', 'y3', 'y4'].sort(),
    );
  });
});
