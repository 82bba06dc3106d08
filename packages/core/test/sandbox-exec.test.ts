/**
 * colony's `sandbox` setting reaches the runtime tools: with openColony({ sandbox })
 * exec_parallel and swarm_run commands cannot write outside their worktree; without it
 * they can (the default is off). Skipped where bubblewrap cannot run, except under
 * CI=true.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandbox, openColony } from '../src/index';

const found = detectSandbox();
const skip = found.kind !== 'bwrap' && process.env.CI !== 'true';
if (skip) console.warn(`sandbox exec tests skipped: ${found.reason}`);
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const fn of cleanups.splice(0)) fn();
});

function temp(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function repo(): string {
  const root = temp('colony-sbx-repo-');
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(root, 'README.md'), 'x\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return root;
}

describe.skipIf(skip)('the sandbox setting of exec_parallel and swarm_run', () => {
  it('confines their commands when set, and not by default', async () => {
    expect(found.kind, found.reason).toBe('bwrap');
    const root = repo();
    const target = `/var/tmp/colony-core-sbx-${process.pid}`;
    cleanups.push(() => rmSync(target, { force: true }));
    const command = `echo in > in.txt && echo out > ${target}`;
    const confined = openColony({
      home: temp('colony-sbx-home-'),
      dbPath: ':memory:',
      receipts: false,
      allowExec: true,
      sandbox: { mode: 'required' },
    });
    cleanups.push(() => confined.close());
    expect((await confined.handleToolCall('workspace_fork', { repo_root: root, count: 1 })).ok).toBe(true);
    const run = await confined.handleToolCall('exec_parallel', {
      repo_root: root,
      workspace_ids: ['ws-1'],
      commands: command,
    });
    const result = run.ok ? (run.value as { results: { exit_code: number; stderr: string }[] }).results[0] : null;
    expect(result?.exit_code).not.toBe(0);
    expect(result?.stderr).toContain('Read-only file system');
    expect(existsSync(target)).toBe(false);
    // swarm_run: the task's command fails the same way.
    const started = await confined.handleToolCall('swarm_run', { repo_root: root, tasks: [{ name: 'a', command }] });
    const id = started.ok ? (started.value as { swarm_id: string }).swarm_id : '';
    let state = 'running';
    for (let i = 0; i < 100 && state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const status = await confined.handleToolCall('swarm_status', { swarm_id: id });
      state = status.ok ? (status.value as { state: string }).state : 'error';
    }
    expect(state).toBe('failed');
    expect(existsSync(target)).toBe(false);

    const plain = openColony({ home: temp('colony-sbx-home-'), dbPath: ':memory:', receipts: false, allowExec: true });
    cleanups.push(() => plain.close());
    const open = await plain.handleToolCall('exec_parallel', {
      repo_root: root,
      workspace_ids: ['ws-1'],
      commands: command,
    });
    expect(open.ok && (open.value as { results: { exit_code: number }[] }).results[0]?.exit_code).toBe(0);
    expect(existsSync(target)).toBe(true);
  });
});
