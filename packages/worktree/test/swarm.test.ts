import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareSwarm, runPrepared, type SwarmSpec, type WorkerProgress } from '../src/index';
import { sh, tempRepo } from './_repo';

const repos: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

function spec(root: string, over: Partial<SwarmSpec>): SwarmSpec {
  return { repo_root: root, base_ref: 'HEAD', tasks: [], max_parallel: 4, timeout_secs: 60, cleanup: true, ...over };
}

/** Writes <name>.txt and the start/end times (ms) of the task. */
const stamp = (name: string, sleep = 0.4) =>
  `node -e "console.log(Date.now())" > ${name}.start; sleep ${sleep}; echo ${name} > ${name}.txt; ls *.txt > ${name}.saw; node -e "console.log(Date.now())" > ${name}.end`;

describe('swarm engine', () => {
  it('runs a diamond in dependency order, b and c overlapping, d seeing a, b and c', async () => {
    const { root, cleanup } = tempRepo();
    repos.push({ cleanup });
    const prepared = await prepareSwarm(
      spec(root, {
        tasks: [
          { name: 'a', command: stamp('a') },
          { name: 'b', command: stamp('b', 2), depends_on: ['a'] },
          { name: 'c', command: stamp('c', 2), depends_on: ['a'] },
          { name: 'd', command: stamp('d'), depends_on: ['b', 'c'] },
        ],
        merge_strategy: 'branch-per-source',
        merge_target: 'main',
      }),
    );
    const seen: WorkerProgress[] = [];
    const result = await runPrepared(prepared, 'swarm-test-1', { worker: (p) => seen.push(p), finished: () => {} });
    expect(result.tasks.map((t) => [t.name, t.success, t.commits])).toEqual([
      ['a', true, 1],
      ['b', true, 1],
      ['c', true, 1],
      ['d', true, 1],
    ]);
    const time = (f: string) => Number(sh(root, 'show', `main:${f}`));
    expect(time('b.start')).toBeGreaterThanOrEqual(time('a.end'));
    expect(time('c.start')).toBeGreaterThanOrEqual(time('a.end'));
    expect(time('b.start')).toBeLessThan(time('c.end'));
    expect(time('c.start')).toBeLessThan(time('b.end'));
    expect(time('d.start')).toBeGreaterThanOrEqual(Math.max(time('b.end'), time('c.end')));
    expect(sh(root, 'show', 'main:d.saw').split('\n')).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    expect(result.merge?.results.map((r) => r.success)).toEqual([true, true, true, true]);
    expect(result.summary.workers_destroyed).toBe(4);
    expect(sh(root, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(sh(root, 'branch', '--list', 'colony/*')).toBe('');
    expect(seen.some((p) => p.name === 'd' && p.state === 'executing')).toBe(true);
    expect(readFileSync(join(root, '.colony', 'logs', 'swarm', 'swarm-test-1', 'a.log'), 'utf8')).toBe('');
  });

  it('skips what depends on a failed task, transitively, and merges only successes', async () => {
    const { root, cleanup } = tempRepo();
    repos.push({ cleanup });
    const prepared = await prepareSwarm(
      spec(root, {
        tasks: [
          { name: 'a', command: 'echo a > a.txt' },
          { name: 'b', command: 'echo b > b.txt; exit 3', depends_on: ['a'] },
          { name: 'c', command: 'echo c > c.txt', depends_on: ['a'] },
          { name: 'd', command: 'echo d > d.txt', depends_on: ['b', 'c'] },
          { name: 'e', command: 'echo e > e.txt', depends_on: ['d'] },
        ],
        merge_strategy: 'cherry-pick',
        merge_target: 'main',
      }),
    );
    const result = await runPrepared(prepared, 'swarm-test-2');
    expect(result.tasks.map((t) => [t.name, t.success, t.exit_code, t.skipped])).toEqual([
      ['a', true, 0, false],
      ['b', false, 3, false],
      ['c', true, 0, false],
      ['d', false, null, true],
      ['e', false, null, true],
    ]);
    expect(result.merge?.results.map((r) => r.source)).toEqual(['a', 'c']);
    expect(sh(root, 'ls-tree', '--name-only', 'main').split('\n').sort()).toEqual(['README.md', 'a.txt', 'c.txt']);
    // b's branch holds unmerged work: kept; the worktrees are gone.
    expect(sh(root, 'branch', '--list', 'colony/*')).toBe('colony/swarm-test-2/b');
    expect(existsSync(join(root, '.colony', 'worktrees', 'swarm-test-2', 'b'))).toBe(false);
  });

  it.each([
    [
      [
        { name: 'a', command: 'x', depends_on: ['b'] },
        { name: 'b', command: 'x', depends_on: ['a'] },
      ],
      /cycle among: a, b/,
    ],
    [[{ name: 'a', command: 'x', depends_on: ['zz'] }], /unknown task "zz"/],
    [
      [
        { name: 'a', command: 'x' },
        { name: 'a', command: 'y' },
      ],
      /used twice/,
    ],
    [[{ name: 'Bad Name', command: 'x' }], /must match/],
    [[{ name: 'a', command: 'x', workdir: '../..' }], /leaves the worktree/],
  ])('refuses a bad task list before creating anything (%#)', async (tasks, message) => {
    const { root, cleanup } = tempRepo();
    repos.push({ cleanup });
    await expect(prepareSwarm(spec(root, { tasks }))).rejects.toThrow(message);
    expect(sh(root, 'worktree', 'list').split('\n')).toHaveLength(1);
  });
});
