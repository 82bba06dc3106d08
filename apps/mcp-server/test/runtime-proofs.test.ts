/**
 * What issue 13 must show, over the real MCP SDK client (stdio, --allow-exec) on real git
 * repositories: each merge strategy's documented history on the same inputs; a
 * conflicting source leaves the target's tree hash as it was; a failing verify does not
 * move merge_target and reports its log tail; the diamond's order and b/c overlap from
 * what the commands themselves wrote; workspace_list reports `locked`; GIT_TOO_OLD from a
 * git that says 2.19.0; and the rate limits of workspace_fork and swarm_run (one token
 * per worktree created, per calling agent) from settings.json.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GIT_IDENTITY, git, removeRepos, tempRepo, worktreeCount } from './_git';
import { type Server, type StartOptions, startServer, tempDir } from './_harness';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  removeRepos();
});

async function server(options: Partial<StartOptions> = {}): Promise<Server> {
  const s = await startServer({ db: join(tempDir(), 'colony.db'), flags: ['--allow-exec'], ...options });
  servers.push(s);
  return s;
}

const TWO_TASKS = [
  { name: 'one', command: 'echo 1 > one.txt && git add -A && git commit -qm "one: own" && echo 1b > one-b.txt' },
  { name: 'two', command: 'echo 2 > two.txt' },
];

describe('merge strategies on the same inputs', () => {
  it('sequential and cherry-pick replay the commits linearly, branch-per-source adds one merge per task; same tree', async () => {
    const s = await server();
    const trees: string[] = [];
    const histories: Record<string, string[]> = {};
    for (const strategy of ['sequential', 'cherry-pick', 'branch-per-source']) {
      const root = tempRepo();
      const r = await s.call('swarm_run', {
        repo_root: root,
        tasks: TWO_TASKS,
        env_vars: GIT_IDENTITY,
        merge_strategy: strategy,
        merge_target: 'main',
        max_parallel: 1,
      });
      expect(
        r.payload.merge.results.map((m: { commits_applied: number }) => m.commits_applied),
        strategy,
      ).toEqual([2, 1]);
      trees.push(git(root, 'rev-parse', 'main^{tree}'));
      histories[strategy] = git(root, 'log', '--first-parent', '--format=%s|%p', 'main')
        .split('\n')
        .map((line) => {
          const [subject, parents] = line.split('|');
          return `${subject} (${(parents ?? '').split(' ').length} parent)`;
        });
    }
    expect(new Set(trees).size).toBe(1);
    const linear = [
      'swarm: auto-commit two (1 parent)',
      'swarm: auto-commit one (1 parent)',
      'one: own (1 parent)',
      'init (1 parent)',
    ];
    expect(histories.sequential).toEqual(linear);
    expect(histories['cherry-pick']).toEqual(linear);
    expect(histories['branch-per-source']).toEqual([
      'Merge task: two (2 parent)',
      'Merge task: one (2 parent)',
      'init (1 parent)',
    ]);
  });

  it('a conflicting source leaves the target tree hash and commit exactly as they were, for every strategy', async () => {
    const s = await server();
    for (const strategy of ['sequential', 'cherry-pick', 'branch-per-source']) {
      const root = tempRepo();
      const base = git(root, 'rev-parse', 'HEAD');
      writeFileSync(join(root, 'README.md'), 'main moved on\n');
      git(root, 'commit', '-qam', 'main edit');
      const before = { tree: git(root, 'rev-parse', 'main^{tree}'), commit: git(root, 'rev-parse', 'main') };
      const r = await s.call('swarm_run', {
        repo_root: root,
        base_ref: base,
        tasks: [{ name: 'clash', command: 'echo task > README.md' }],
        merge_strategy: strategy,
        merge_target: 'main',
      });
      expect(r.payload.merge.results, strategy).toEqual([
        { source: 'clash', success: false, commits_applied: 0, conflicts: ['README.md'] },
      ]);
      expect(git(root, 'rev-parse', 'main^{tree}'), strategy).toBe(before.tree);
      expect(git(root, 'rev-parse', 'main'), strategy).toBe(before.commit);
      expect(git(root, 'status', '--porcelain'), strategy).toBe('');
    }
  });
});

describe('verify', () => {
  it('a failing candidate is not merged and reports its log tail; merge_target stays put when none passes', async () => {
    const root = tempRepo();
    const s = await server();
    const verify = 'if [ -e bad.txt ]; then echo "verify: bad.txt found"; exit 1; fi';
    const r = await s.call('swarm_run', {
      repo_root: root,
      tasks: [
        { name: 'bad', command: 'echo x > bad.txt' },
        { name: 'good', command: 'echo y > good.txt' },
      ],
      merge_strategy: 'branch-per-source',
      merge_target: 'main',
      verify,
    });
    const [bad, good] = r.payload.merge.results;
    expect(bad).toMatchObject({ source: 'bad', success: false, commits_applied: 0, error: 'verify failed' });
    expect(bad.log_tail).toContain('verify: bad.txt found');
    expect(good).toMatchObject({ source: 'good', success: true, commits_applied: 1 });
    expect(git(root, 'ls-tree', '--name-only', 'main').split('\n')).toEqual(['README.md', 'good.txt']);

    const before = git(root, 'rev-parse', 'main');
    const none = await s.call('swarm_run', {
      repo_root: root,
      tasks: [{ name: 'bad2', command: 'echo x > bad.txt' }],
      merge_strategy: 'sequential',
      merge_target: 'main',
      verify,
    });
    expect(none.payload.merge.results[0]).toMatchObject({ success: false, error: 'verify failed' });
    expect(git(root, 'rev-parse', 'main')).toBe(before);
  });
});

describe('the diamond, from what the commands wrote', () => {
  it('runs a before b and c, b and c at once, d after both', async () => {
    const root = tempRepo();
    const marks = tempDir('colony-marks-');
    const s = await server();
    const stamp = (name: string, what: string) => `date +%s%N > ${marks}/${name}.${what}`;
    // b and c each wait for the other to have started: they finish only if they overlap.
    const meet = (me: string, other: string) =>
      `${stamp(me, 'start')}; until [ -e ${marks}/${other}.start ]; do sleep 0.05; done; ${stamp(me, 'end')}`;
    const r = await s.call('swarm_run', {
      repo_root: root,
      tasks: [
        { name: 'a', command: `${stamp('a', 'start')}; echo a > a.txt; ${stamp('a', 'end')}` },
        { name: 'b', command: meet('b', 'c'), depends_on: ['a'] },
        { name: 'c', command: meet('c', 'b'), depends_on: ['a'] },
        { name: 'd', command: `${stamp('d', 'start')}; ls`, depends_on: ['b', 'c'] },
      ],
      timeout_secs: 120,
    });
    expect(r.payload.tasks.map((t: { success: boolean }) => t.success)).toEqual([true, true, true, true]);
    const t = (file: string) => BigInt(readFileSync(join(marks, file), 'utf8').trim());
    expect(t('a.end') <= t('b.start') && t('a.end') <= t('c.start')).toBe(true);
    // Overlap: each started before the other ended.
    expect(t('b.start') < t('c.end') && t('c.start') < t('b.end')).toBe(true);
    expect(t('d.start') >= t('b.end') && t('d.start') >= t('c.end')).toBe(true);
  });
});

describe('workspace_list and GIT_TOO_OLD', () => {
  it('lists forked workspaces as locked', async () => {
    const root = tempRepo();
    const s = await server();
    await s.call('workspace_fork', { repo_root: root, names: ['w1'] });
    const listed = await s.call('workspace_list', { repo_root: root });
    expect(listed.payload.workspaces).toEqual([
      expect.objectContaining({ workspace_name: 'w1', branch: 'colony/ws/w1', locked: true, clean: true }),
    ]);
  });

  it('answers GIT_TOO_OLD naming the version when git says 2.19.0, creating nothing', async () => {
    const root = tempRepo();
    const bin = tempDir('colony-fake-git-');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "git version 2.19.0"; exit 0; fi\nexec ${realGit} "$@"\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    const s = await server({ env: { PATH: `${bin}:${process.env.PATH}` } });
    const r = await s.call('workspace_fork', { repo_root: root });
    expect(r.payload.code).toBe('GIT_TOO_OLD');
    expect(r.payload.error).toContain('2.19.0');
    expect(worktreeCount(root)).toBe(1);
  });
});

describe('rate limits from settings.json', () => {
  it('workspace_fork and swarm_run take one token per worktree created, per calling agent', async () => {
    const root = tempRepo();
    const home = tempDir('colony-home-');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        rateLimits: {
          workspace_fork: { limit: 3, window_sec: 3600 },
          swarm_run: { limit: 3, window_sec: 3600 },
        },
      }),
    );
    const s = await server({ home });
    expect((await s.call('workspace_fork', { repo_root: root, count: 2 })).isError).toBe(false);
    const over = await s.call('workspace_fork', { repo_root: root, count: 2 });
    expect(over.payload).toMatchObject({
      error: 'rate_limited',
      code: 429,
      tool: 'workspace_fork',
      limit: 3,
      remaining: 1,
      scope: 'mcp',
    });
    // The refusal created nothing; the one token left still serves one worktree, and another agent has its own bucket.
    expect(worktreeCount(root)).toBe(3);
    expect((await s.call('workspace_fork', { repo_root: root, count: 1 })).isError).toBe(false);
    const other = await s.call('workspace_fork', { repo_root: root, count: 3, agent: 'other' });
    expect(other.isError).toBe(false);
    expect(worktreeCount(root)).toBe(7);

    const tasks = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, command: 'true' }));
    expect((await s.call('swarm_run', { repo_root: root, tasks: tasks(3) })).isError).toBe(false);
    const refused = await s.call('swarm_run', { repo_root: root, tasks: tasks(1) });
    expect(refused.payload).toMatchObject({
      error: 'rate_limited',
      code: 429,
      tool: 'swarm_run',
      limit: 3,
      scope: 'mcp',
    });
    expect((await s.call('swarm_run', { repo_root: root, tasks: tasks(2), agent: 'other' })).isError).toBe(false);
  });

  it('defaults to 40 worktrees per 60 s for workspace_fork', async () => {
    const root = tempRepo();
    const clockFile = join(tempDir(), 'clock');
    writeFileSync(clockFile, String(Date.UTC(2026, 0, 1)));
    const s = await server({ clockFile });
    // 40 tokens in a full bucket: 20 + 20 pass (the clock stands still), the 41st worktree is refused.
    for (const n of [20, 20])
      expect((await s.call('workspace_fork', { repo_root: root, count: n })).isError).toBe(false);
    const over = await s.call('workspace_fork', { repo_root: root, count: 1 });
    expect(over.payload).toMatchObject({ error: 'rate_limited', code: 429, limit: 40, remaining: 0 });
  });
});
