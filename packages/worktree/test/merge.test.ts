import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { colonyDir, createWorktree, type MergeStrategy, mergeBranches, openRepo, type Repo } from '../src/index';
import { sh, tempRepo } from './_repo';

const repos: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

/** Three branches off main: a adds a.txt (2 commits), b writes f.txt, c writes f.txt differently (conflicts with b). */
async function fixture(): Promise<{ root: string; r: Repo }> {
  const t = tempRepo();
  repos.push(t);
  const r = await openRepo(t.root);
  const commit = (path: string, file: string, body: string, msg: string) => {
    writeFileSync(join(path, file), body);
    sh(path, 'add', '-A');
    sh(path, 'commit', '-q', '-m', msg);
  };
  for (const name of ['a', 'b', 'c']) {
    await createWorktree(r, { path: join(colonyDir(r), 'worktrees', name), branch: `colony/ws/${name}` });
  }
  const wt = (n: string) => join(colonyDir(r), 'worktrees', n);
  commit(wt('a'), 'a.txt', 'A1\n', 'a one');
  commit(wt('a'), 'a2.txt', 'A2\n', 'a two');
  commit(wt('b'), 'f.txt', 'from b\n', 'b writes f');
  commit(wt('c'), 'f.txt', 'from c\n', 'c writes f');
  return { root: t.root, r };
}

const sources = ['a', 'b', 'c'].map((n) => ({ name: n, branch: `colony/ws/${n}` }));

describe('mergeBranches', () => {
  it.each<[MergeStrategy, string[]]>([
    ['branch-per-source', ['Merge task: b', 'b writes f', 'Merge task: a', 'a two', 'a one', 'init']],
    ['sequential', ['b writes f', 'a two', 'a one', 'init']],
    ['cherry-pick', ['b writes f', 'a two', 'a one', 'init']],
  ])(
    '%s: merges the others, and a conflicting source leaves the target exactly as before it',
    async (strategy, log) => {
      const { root, r } = await fixture();
      const report = await mergeBranches(r, { target: 'main', strategy, sources });
      expect(report.results.map((x) => [x.source, x.outcome])).toEqual([
        ['a', { ok: true, commitsApplied: 2 }],
        ['b', { ok: true, commitsApplied: 1 }],
        ['c', { ok: false, reason: 'conflict', files: ['f.txt'] }],
      ]);
      expect(sh(root, 'log', '--format=%s', '--topo-order', 'main').split('\n')).toEqual(
        strategy === 'branch-per-source' ? expect.arrayContaining(log) : log,
      );
      // The checked-out main moved (fast-forward), its tree is a + b, and nothing is mid-merge.
      expect(sh(root, 'rev-parse', 'HEAD')).toBe(report.after);
      expect(sh(root, 'status', '--porcelain')).toBe('');
      expect(sh(root, 'show', 'main:f.txt')).toBe('from b');
      for (const marker of ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'rebase-apply']) {
        expect(existsSync(join(root, '.git', marker))).toBe(false);
      }
      expect(sh(root, 'worktree', 'list').split('\n')).toHaveLength(4);
    },
  );

  it('keeps the target byte-identical (same tree) when its only source conflicts', async () => {
    const { root, r } = await fixture();
    await mergeBranches(r, { target: 'main', strategy: 'branch-per-source', sources: [sources[1] as never] });
    const tree = sh(root, 'rev-parse', 'main^{tree}');
    const report = await mergeBranches(r, {
      target: 'main',
      strategy: 'branch-per-source',
      sources: [sources[2] as never],
    });
    expect(report.results[0]?.outcome).toEqual({ ok: false, reason: 'conflict', files: ['f.txt'] });
    expect(sh(root, 'rev-parse', 'main^{tree}')).toBe(tree);
    expect(report.after).toBe(report.before);
  });

  it('merges into a branch that is not checked out through a temporary worktree, moving only the ref', async () => {
    const { root, r } = await fixture();
    sh(root, 'branch', 'release');
    const head = sh(root, 'rev-parse', 'HEAD');
    const report = await mergeBranches(r, {
      target: 'release',
      strategy: 'branch-per-source',
      sources: [sources[0] as never],
    });
    expect(report.results[0]?.outcome.ok).toBe(true);
    expect(sh(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(sh(root, 'rev-parse', 'release')).toBe(report.after);
    expect(sh(root, 'log', '-1', '--format=%s', 'release')).toBe('Merge task: a');
  });

  it('refuses a dirty checked-out target before merging anything', async () => {
    const { root, r } = await fixture();
    writeFileSync(join(root, 'README.md'), 'changed\n');
    await expect(mergeBranches(r, { target: 'main', strategy: 'sequential', sources })).rejects.toMatchObject({
      reason: 'dirty_tree',
    });
  });

  it('does not merge a candidate whose verify command fails, and reports its log tail', async () => {
    const { root, r } = await fixture();
    const report = await mergeBranches(r, {
      target: 'main',
      strategy: 'branch-per-source',
      sources: [sources[0] as never, sources[1] as never],
      verify: 'if [ -f f.txt ]; then echo "f.txt is not allowed"; exit 1; fi',
    });
    expect(report.results[0]?.outcome).toEqual({ ok: true, commitsApplied: 2 });
    expect(report.results[1]?.outcome).toMatchObject({ ok: false, reason: 'verify_failed' });
    expect(JSON.stringify(report.results[1])).toContain('f.txt is not allowed');
    expect(sh(root, 'ls-tree', '--name-only', 'main')).not.toContain('f.txt');
  });
});
