/** One command hook as a real process: stdin context, exit-code rules, the timeout kills its group. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupAlive } from '@swarm/worktree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHook } from './run-hook.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'run-hook-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (command: string, timeout_ms = 5000) =>
  runHook(command, { hook_event_name: 'PreToolUse' }, { cwd: dir, timeout_ms });

describe('runHook', () => {
  it('gives the context JSON on stdin and runs in the given folder', async () => {
    const r = await run('cat > seen.json; pwd > where.txt');
    expect(r.exit_code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'seen.json'), 'utf8'))).toEqual({ hook_event_name: 'PreToolUse' });
    expect(readFileSync(join(dir, 'where.txt'), 'utf8').trim()).toBe(dir);
  });

  it('exit 0 with a JSON decision: deny with its reason', async () => {
    const r = await run(`echo '{"decision":"deny","reason":"nope"}'`);
    expect(r).toMatchObject({ decision: 'deny', reason: 'nope', error: null });
  });

  it('exit 0 with no output is an implicit allow; plain text is no decision', async () => {
    expect((await run('true')).decision).toBe('allow');
    expect(await run('echo hello')).toMatchObject({ decision: null, error: null });
  });

  it('exit 2 blocks with stderr as the reason, even when stdout says allow', async () => {
    const r = await run(`echo '{"decision":"allow"}'; echo blocked >&2; exit 2`);
    expect(r).toMatchObject({ exit_code: 2, decision: 'block', reason: 'blocked' });
  });

  it('any other exit code is a logged non-blocking error, whatever stdout says', async () => {
    const r = await run(`echo '{"decision":"deny"}'; echo oops >&2; exit 1`);
    expect(r).toMatchObject({ exit_code: 1, decision: null, error: 'exit code 1: oops' });
  });

  it('kills the whole process group when the timeout expires', async () => {
    const started = performance.now();
    const r = await run('sleep 30 & sleep 30; wait', 300);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(r).toMatchObject({ timed_out: true, decision: null, exit_code: -1 });
    expect(r.error).toMatch(/timed out/);
    expect(r.pgid).toBeGreaterThan(0);
    expect(groupAlive(r.pgid!)).toBe(false);
  });
});
