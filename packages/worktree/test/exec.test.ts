import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive, runCommand } from '../src/index';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir() {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'colony-exec-')));
  dirs.push(d);
  return d;
}

describe('runCommand', () => {
  it('runs a shell command in the folder with the environment given', async () => {
    const cwd = dir();
    const r = await runCommand(cwd, 'pwd; echo "$FOO"; echo oops >&2; exit 3', {
      timeoutMs: 5000,
      env: { FOO: 'bar' },
    });
    expect(r).toMatchObject({
      exit_code: 3,
      stdout: `${cwd}\nbar\n`,
      stderr: 'oops\n',
      timed_out: false,
      truncated: false,
    });
  });

  it('writes `input` to stdin and closes it; a command that ignores stdin is not an error', async () => {
    const cwd = dir();
    const r = await runCommand(cwd, 'cat; echo done', { timeoutMs: 5000, input: '{"a":1}\n' });
    expect(r).toMatchObject({ exit_code: 0, stdout: '{"a":1}\ndone\n' });
    const big = 'x'.repeat(1 << 20);
    const ignored = await runCommand(cwd, 'exit 0', { timeoutMs: 5000, input: big });
    expect(ignored).toMatchObject({ exit_code: 0, timed_out: false });
    // Without input the command reads end-of-file at once instead of waiting.
    const none = await runCommand(cwd, 'cat; echo eof', { timeoutMs: 5000 });
    expect(none).toMatchObject({ exit_code: 0, stdout: 'eof\n' });
  });

  it('answers only once the group it killed is gone', async () => {
    const cwd = dir();
    let pgid = 0;
    const r = await runCommand(cwd, 'sleep 30 & echo started', { timeoutMs: 5000, onSpawn: (id) => (pgid = id) });
    expect(r.stdout).toBe('started\n');
    // No live member: gone, or (Linux) only zombies left for a slow-reaping init to collect.
    expect(groupAlive(pgid)).toBe(false);
  });

  it('kills the whole process group on timeout, a child ignoring SIGTERM included', async () => {
    const cwd = dir();
    const r = await runCommand(cwd, `sh -c 'trap "" TERM; sleep 3; touch late' & sleep 30; touch late2`, {
      timeoutMs: 300,
    });
    expect(r.timed_out).toBe(true);
    expect(r.exit_code).toBe(-1);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(existsSync(join(cwd, 'late'))).toBe(false);
    expect(existsSync(join(cwd, 'late2'))).toBe(false);
  });

  it('caps each stream at maxOutputBytes and says so', async () => {
    const r = await runCommand(dir(), 'head -c 1000000 /dev/zero | tr "\\0" x', {
      timeoutMs: 5000,
      maxOutputBytes: 1000,
    });
    expect(r.stdout).toHaveLength(1000);
    expect(r.truncated).toBe(true);
    expect(r.exit_code).toBe(0);
  });

  it('redacts secret values from the output', async () => {
    const r = await runCommand(dir(), 'echo "key=$KEY"', {
      timeoutMs: 5000,
      env: { KEY: 'sk-secret-123' },
      secrets: ['sk-secret-123'],
    });
    expect(r.stdout).toBe('key=***\n');
  });

  it('masks a secret written in two chunks, in the output and the log alike', async () => {
    const cwd = dir();
    const log = join(cwd, 'logs', 'task.log');
    // The pause makes the two halves reach us as separate chunks.
    const r = await runCommand(
      cwd,
      `printf 'a=sk-sec'; sleep 0.3; printf 'ret-123\\n'; printf 'sk-se' >&2; sleep 0.3; printf 'cret-123' >&2`,
      {
        timeoutMs: 5000,
        secrets: ['sk-secret-123'],
        logFile: log,
      },
    );
    expect(r.stdout).toBe('a=***\n');
    expect(r.stderr).toBe('***');
    const logged = readFileSync(log, 'utf8');
    expect(logged).not.toContain('sk-se');
    expect(logged).toContain('a=***');
  });

  it('masks before it caps: a cut through a secret leaves none of it', async () => {
    const r = await runCommand(dir(), `printf 'xxxxxsk-secret-123yyyy'`, {
      timeoutMs: 5000,
      secrets: ['sk-secret-123'],
      maxOutputBytes: 9,
    });
    expect(r.stdout).toBe('xxxxx***y');
    expect(r.truncated).toBe(true);
  });
});
