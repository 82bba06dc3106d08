/** The session's git side on real repositories with the real git CLI. */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentWorktree,
  checkSession,
  finishSession,
  readSession,
  SESSION_ID,
  sessionBranch,
  sessionPaths,
  startSession,
} from '../src/index.js';

let repo: string;
const g = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
const now = Date.UTC(2026, 10, 25, 12);
const opts = (over = {}) => ({
  cwd: repo,
  agents: ['backend', 'frontend', 'supervisor'],
  supervisor: 'supervisor',
  now,
  db_path: '/tmp/colony.db',
  pid: process.pid,
  ...over,
});

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'session-'));
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 't@example.com');
  g('config', 'user.name', 'T');
  writeFileSync(join(repo, 'README.md'), 'hi\n');
  g('add', '.');
  g('commit', '-qm', 'init');
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('session lifecycle', () => {
  it('start makes files and locked worktrees; stop --merge merges in order with Merge agent commits and cleans up', async () => {
    const started = await startSession(opts());
    expect(started.info.id).toMatch(SESSION_ID);
    expect(started.info.id.startsWith('20261125-')).toBe(true);
    expect(readSession(repo)).toEqual(started.info);
    expect(readFileSync(sessionPaths(repo).lock, 'utf8').trim()).toBe(String(process.pid));
    expect(checkSession(repo).state).toBe('active');
    const list = g('worktree', 'list', '--porcelain');
    for (const name of ['backend', 'frontend', 'supervisor']) {
      expect(list).toContain(`branch refs/heads/${sessionBranch(started.info.id, name)}`);
    }
    expect(list).toContain('locked');
    writeFileSync(join(agentWorktree(repo, 'backend'), 'api.ts'), 'api\n');
    execFileSync('git', ['add', '.'], { cwd: agentWorktree(repo, 'backend') });
    execFileSync('git', ['commit', '-qm', 'api'], { cwd: agentWorktree(repo, 'backend') });
    writeFileSync(join(agentWorktree(repo, 'frontend'), 'ui.ts'), 'ui\n'); // left dirty: auto-committed
    const report = await finishSession(repo, started.info, 'merge');
    expect(report.agents.map((a) => [a.name, a.outcome, a.auto_committed, a.branch_deleted])).toEqual([
      ['backend', 'merged', false, true],
      ['frontend', 'merged', true, true],
      ['supervisor', 'up_to_date', false, true],
    ]);
    expect(g('log', '--first-parent', '--format=%s', '-3').split('\n')).toEqual([
      'Merge agent: frontend',
      'Merge agent: backend',
      'init',
    ]);
    expect(g('log', '--format=%s', 'HEAD^2', '-1')).toBe('swarm: auto-commit on stop');
    expect(existsSync(join(repo, 'api.ts')) && existsSync(join(repo, 'ui.ts'))).toBe(true);
    expect(g('worktree', 'list').split('\n')).toHaveLength(1);
    expect(g('branch', '--list', 'colony/*')).toBe('');
    expect(existsSync(sessionPaths(repo).session) || existsSync(sessionPaths(repo).lock)).toBe(false);
  });

  it('a conflicting branch is aborted, kept and reported; squash makes Squash agent commits', async () => {
    const started = await startSession(opts({ agents: ['a', 'b'], supervisor: null }));
    for (const name of ['a', 'b']) writeFileSync(join(agentWorktree(repo, name), 'README.md'), `${name}\n`);
    const report = await finishSession(repo, started.info, 'squash');
    expect(report.agents.map((a) => [a.name, a.outcome, a.branch_deleted])).toEqual([
      ['a', 'squashed', true],
      ['b', 'conflict', false],
    ]);
    expect(report.agents[1]!.files).toEqual(['README.md']);
    expect(g('log', '--format=%s', '-1')).toBe('Squash agent: a');
    expect(g('status', '--porcelain')).toBe('');
    expect(g('branch', '--list', 'colony/*')).toContain(sessionBranch(started.info.id, 'b'));
  });

  it('refuses a dirty tree without --stash, a detached HEAD, a live session; recovers a dead one keeping committed branches', async () => {
    writeFileSync(join(repo, 'dirty.txt'), 'x');
    await expect(startSession(opts())).rejects.toMatchObject({ code: 'dirty_tree' });
    const stashed = await startSession(opts({ stash: true, agents: ['a', 'b'], supervisor: null }));
    expect(stashed.info.stashed).toBe(true);
    await expect(startSession(opts())).rejects.toMatchObject({ code: 'session_active' });
    // The session runner dies: a PID that no longer exists.
    const child = spawn('true');
    await new Promise((r) => child.on('exit', r));
    writeFileSync(sessionPaths(repo).lock, `${child.pid}\n`);
    expect(checkSession(repo).state).toBe('stale');
    writeFileSync(join(agentWorktree(repo, 'a'), 'work.txt'), 'work\n'); // dirty: auto-committed on recovery
    const next = await startSession(opts({ agents: ['c'], supervisor: null, now: now + 1000 }));
    expect(next.recovered).toMatchObject({
      session_id: stashed.info.id,
      auto_committed: ['a'],
      kept_branches: [sessionBranch(stashed.info.id, 'a')],
      deleted_branches: [sessionBranch(stashed.info.id, 'b')],
    });
    expect(g('show', `${sessionBranch(stashed.info.id, 'a')}:work.txt`)).toBe('work');
    await finishSession(repo, next.info, 'discard');
    g('checkout', '-q', '--detach');
    await expect(startSession(opts())).rejects.toMatchObject({ code: 'detached_head' });
  });
});
