/**
 * The runtime commands as real processes (the built CLI) on a real git repository:
 * `colony workspace fork|list|merge|destroy|clean`, `colony exec`, `colony swarm run
 * <file.json|yaml>` (the file's relative repo_root, --json, the plain output off a
 * terminal, progress on a pseudo-terminal from script(1)), `colony swarm status|collect <id>`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliStore } from './_cli';
import { git } from './_repo';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');

// Commits the CLI makes (auto-commits, merges) need an author wherever the tests run.
Object.assign(process.env, {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
});

function repoIn(dir: string): string {
  const root = join(dir, 'repo');
  mkdirSync(root);
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(join(root, 'README.md'), 'hello\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

function gitOut(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
}

describe('colony workspace and colony exec', () => {
  const { dir, colony } = cliStore('colony-cli-runtime-');
  let root = '';
  beforeAll(() => {
    root = repoIn(dir);
  });

  it('forks, lists (locked), runs a command in each, merges, destroys, cleans', () => {
    const fork = colony(['workspace', 'fork', '--repo-root', root, '--names', 'a,b', '--json']);
    expect(fork.code, fork.stderr).toBe(0);
    expect(fork.json().workspaces.map((w: { branch: string }) => w.branch)).toEqual(['colony/ws/a', 'colony/ws/b']);

    const listed = colony(['workspace', 'list', '--repo-root', root, '--json']).json();
    expect(listed.count).toBe(2);
    expect(listed.workspaces.map((w: { locked: boolean; clean: boolean }) => [w.locked, w.clean])).toEqual([
      [true, true],
      [true, true],
    ]);
    const plain = colony(['workspace', 'list', '--repo-root', root]);
    expect(plain.stdout).toContain('a  colony/ws/a  clean');

    const run = colony([
      'exec',
      '--repo-root',
      root,
      '--workspace',
      'a,b',
      '--env',
      'WHO=someone-secret',
      '--',
      'echo "$WHO in $(basename "$PWD")" > who.txt && git add -A && git commit -qm who && echo "done by $WHO"',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('== a: exit 0\ndone by ***\n== b: exit 0\ndone by ***\n');
    const failing = colony(['exec', '--repo-root', root, '--workspace', 'a', '--json', '--', 'exit 5']);
    expect(failing.code).toBe(1);
    expect(failing.json().results[0]).toMatchObject({ workspace_name: 'a', exit_code: 5 });

    const merged = colony(['workspace', 'merge', 'a', '--into', 'main', '--repo-root', root, '--json']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.json().merge.results).toEqual([{ source: 'a', success: true, commits_applied: 1, conflicts: [] }]);
    expect(gitOut(root, 'show', 'main:who.txt')).toBe('someone-secret in a');

    // b holds a commit main does not have: refused without --force.
    const refused = colony(['workspace', 'destroy', 'b', '--repo-root', root]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('WORKSPACE_UNMERGED');
    const destroyed = colony(['workspace', 'destroy', 'a', 'b', '--force', '--repo-root', root, '--json']);
    expect(destroyed.json().count).toBe(2);
    expect(colony(['workspace', 'list', '--repo-root', root]).stdout).toBe('no workspaces\n');

    const clean = colony(['workspace', 'clean', '--repo-root', root, '--json']);
    expect(clean.json()).toMatchObject({
      interrupted: [],
      process_groups_killed: 0,
      worktrees_removed: 0,
      branches_kept: [],
      branches_deleted: [],
    });
  });
});

describe('colony swarm run, status and collect', () => {
  const { dir, colony } = cliStore('colony-cli-swarm-run-');
  let root = '';
  beforeAll(() => {
    root = repoIn(dir);
  });

  it('runs a YAML file (relative repo_root) and prints the response with --json; status and collect read it back', () => {
    const file = join(dir, 'swarm.yaml');
    writeFileSync(
      file,
      [
        'repo_root: repo',
        'merge_strategy: branch-per-source',
        'merge_target: main',
        'tasks:',
        '  - { name: one, command: "echo 1 > one.txt" }',
        '  - { name: two, command: "echo 2 > two.txt", depends_on: [one] }',
      ].join('\n'),
    );
    const run = colony(['swarm', 'run', file, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = run.json();
    expect(result.summary).toMatchObject({ total_tasks: 2, succeeded: 2, failed: 0, workers_destroyed: 2 });
    expect(result.merge.results.map((m: { source: string; success: boolean }) => [m.source, m.success])).toEqual([
      ['one', true],
      ['two', true],
    ]);
    expect(gitOut(root, 'log', '--merges', '--format=%s', 'main').split('\n')).toEqual([
      'Merge task: two',
      'Merge task: one',
      'Merge dependency: one',
    ]);

    const status = colony(['swarm', 'status', result.swarm_id, '--json']);
    expect(status.json()).toMatchObject({
      swarm_id: result.swarm_id,
      state: 'completed',
      progress: { total: 2, completed: 2, running: 0, failed: 0 },
    });
    expect(colony(['swarm', 'status', result.swarm_id]).stdout).toContain(`${result.swarm_id}: completed, 2/2 done`);
    const collected = colony(['swarm', 'collect', result.swarm_id, '--json']);
    expect(collected.json()).toEqual(result);
    const missing = colony(['swarm', 'collect', 'swarm-nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('SWARM_NOT_FOUND');
  });

  it('off a terminal prints the summary lines (no progress line) and exits 1 when a task failed', () => {
    const file = join(dir, 'failing.json');
    writeFileSync(
      file,
      JSON.stringify({
        repo_root: 'repo',
        tasks: [
          { name: 'fine', command: 'true' },
          { name: 'broken', command: 'exit 2' },
          { name: 'after', command: 'true', depends_on: ['broken'] },
        ],
      }),
    );
    const run = colony(['swarm', 'run', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^swarm-\S+: 1\/3 tasks succeeded in \d+\.\d s, 2 worktrees removed\n/);
    expect(run.stdout).toContain('  ok   fine  exit 0');
    expect(run.stdout).toContain('  FAIL broken  exit 2');
    expect(run.stdout).toContain('  skip after  exit -');
    expect(run.stderr).not.toContain(' running, ');
  });

  it.skipIf(!hasScript())('on a terminal (a pseudo-TTY from script(1)) shows progress: running, done, elapsed', () => {
    const file = join(dir, 'tty.json');
    writeFileSync(file, JSON.stringify({ repo_root: 'repo', tasks: [{ name: 'slow', command: 'sleep 1' }] }));
    const db = join(dir, 'colony.db');
    const command = [process.execPath, CLI, 'swarm', 'run', file, '--db', db, '--home', join(dir, 'home')]
      .map((a) => `'${a}'`)
      .join(' ');
    const run = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/swarm-\S+: 1 running, 0\/1 done, 0 failed, \d+\.\d s/);
    expect(run.stdout).toMatch(/swarm-\S+: 0 running, 1\/1 done, 0 failed, \d+\.\d s/);
    expect(run.stdout).toMatch(/1\/1 tasks succeeded/);
  });
});

function hasScript(): boolean {
  return spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
}
