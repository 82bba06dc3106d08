/**
 * A command held until its spawn is recorded (`holdUntilSpawnRecorded`): the swarm engine
 * records each command's process group before the command runs, so a recovery after the
 * server's death can always kill it. If the server dies first, the command never starts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive, runCommand } from '../src/index';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir() {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'colony-hold-')));
  dirs.push(d);
  return d;
}

describe('a command held until its spawn is recorded', () => {
  it('runs nothing until onSpawn settles, then runs as the process whose group was told', async () => {
    const cwd = dir();
    let told = 0;
    let record!: () => void;
    const recorded = new Promise<void>((resolve) => {
      record = resolve;
    });
    const run = runCommand(cwd, 'touch ran; echo "$$"', {
      timeoutMs: 10_000,
      holdUntilSpawnRecorded: true,
      onSpawn: (pgid) => {
        told = pgid;
        return recorded;
      },
    });
    await sleep(300);
    expect(told).toBeGreaterThan(0);
    expect(existsSync(join(cwd, 'ran'))).toBe(false);
    record();
    const r = await run;
    expect(r).toMatchObject({ exit_code: 0, stdout: `${told}\n`, timed_out: false });
    expect(existsSync(join(cwd, 'ran'))).toBe(true);
  });

  it('opens at once when onSpawn answers no promise, and keeps the exit code and the timeout', async () => {
    const cwd = dir();
    expect(
      await runCommand(cwd, 'exit 7', { timeoutMs: 5000, holdUntilSpawnRecorded: true, onSpawn: () => undefined }),
    ).toMatchObject({ exit_code: 7, timed_out: false });
    const slow = await runCommand(cwd, 'sleep 30', {
      timeoutMs: 300,
      holdUntilSpawnRecorded: true,
      onSpawn: () => Promise.resolve(),
    });
    expect(slow).toMatchObject({ timed_out: true, exit_code: -1 });
  });

  it('never starts the command when the process holding it dies first', async () => {
    const cwd = dir();
    const dist = new URL('../dist/index.js', import.meta.url).href;
    const script = `const { runCommand } = await import(${JSON.stringify(dist)});
runCommand(process.argv[1], 'touch ran; sleep 30', {
  timeoutMs: 60_000,
  holdUntilSpawnRecorded: true,
  onSpawn: (pgid) => { console.log(pgid); return new Promise(() => {}); },
});`;
    const holder = spawn(process.execPath, ['--input-type=module', '-e', script, cwd], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pgid = await new Promise<number>((resolve) =>
      holder.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    expect(pgid).toBeGreaterThan(0);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    for (let waited = 0; waited < 5000 && groupAlive(pgid); waited += 50) await sleep(50);
    expect(groupAlive(pgid)).toBe(false);
    expect(existsSync(join(cwd, 'ran'))).toBe(false);
  });
});
