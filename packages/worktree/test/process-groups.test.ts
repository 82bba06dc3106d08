import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { killOwnedGroup, ownsGroup, processStartTime } from '../src/index';

const groups: number[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Gone, as the test wanted.
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A detached shell (its own process group) running `script` in a fresh folder. */
function group(script: string): { pgid: number; cwd: string } {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'colony-pg-')));
  dirs.push(cwd);
  const child = spawn('/bin/sh', ['-c', script], { cwd, detached: true, stdio: 'ignore' });
  child.unref();
  groups.push(child.pid as number);
  return { pgid: child.pid as number, cwd };
}

describe('process groups left by a dead run', () => {
  it('kills a group whose leader has the recorded start time, and never one whose start differs', async () => {
    const { pgid, cwd } = group('sleep 30; true');
    const started = processStartTime(pgid) as number;
    expect(started).toBeGreaterThan(0);
    // Another start time: a later process that reused the pid, not ours.
    expect(ownsGroup(pgid, started + 1, cwd)).toBe(false);
    expect(await killOwnedGroup(pgid, started + 1, cwd)).toBe(false);
    expect(ownsGroup(pgid, started, cwd)).toBe(true);
    expect(await killOwnedGroup(pgid, started, cwd)).toBe(true);
    expect(ownsGroup(pgid, started, cwd)).toBe(false);
  });

  it('with the leader gone, owns the group only through a member working inside the worktree', async () => {
    const { pgid, cwd } = group('sleep 30 & exit 0');
    const started = processStartTime(pgid) ?? 0;
    for (let i = 0; i < 100 && processStartTime(pgid) !== null; i++) await sleep(20);
    expect(ownsGroup(pgid, started, join(cwd, 'elsewhere'))).toBe(false);
    expect(ownsGroup(pgid, started, cwd)).toBe(true);
    expect(await killOwnedGroup(pgid, started, cwd)).toBe(true);
    expect(ownsGroup(pgid, started, cwd)).toBe(false);
  });
});
