/** Firing events at configured hooks: matchers, parallel sync hooks, aggregated reasons, async never blocks. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LifecycleHooks, matcherMatches } from './dispatch.js';
import type { HooksConfig } from './schema.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooks-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hooks = (config: HooksConfig) =>
  new LifecycleHooks(config, { session_id: 's-1', cwd: dir, agent_name: 'backend' });
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command' as const, command, ...extra });

describe('LifecycleHooks.fire', () => {
  it('sends the seed context with inapplicable fields omitted', async () => {
    const h = hooks({ pre_tool_use: [{ matcher: 'Bash', hooks: [cmd('cat > ctx.json')] }] });
    await h.fire('PreToolUse', { tool_name: 'bash', tool_input: { command: 'ls' } });
    const ctx = JSON.parse(readFileSync(join(dir, 'ctx.json'), 'utf8'));
    expect(ctx).toEqual({
      session_id: 's-1',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      agent_name: 'backend',
      tool_name: 'bash',
      tool_input: { command: 'ls' },
    });
    expect('tool_response' in ctx).toBe(false);
  });

  it('runs only the groups whose matcher matches (anchored regex, case-insensitive)', async () => {
    const h = hooks({
      pre_tool_use: [
        { matcher: 'Edit|Write', hooks: [cmd('touch edit')] },
        { matcher: 'Bash', hooks: [cmd('touch bash')] },
        { hooks: [cmd('touch all')] },
      ],
    });
    const r = await h.fire('PreToolUse', { tool_name: 'write', tool_input: {} });
    expect(r.matched).toBe(2);
    expect([existsSync(join(dir, 'edit')), existsSync(join(dir, 'bash')), existsSync(join(dir, 'all'))]).toEqual([
      true,
      false,
      true,
    ]);
    expect(matcherMatches('Bash', 'bash_output')).toBe(false);
    expect(matcherMatches('WebFetch', 'web_fetch')).toBe(true);
  });

  it('runs sync hooks in parallel; any deny or block wins and every reason is kept', async () => {
    const h = hooks({
      pre_tool_use: [
        {
          hooks: [
            cmd(`sleep 0.4; echo '{"decision":"deny","reason":"first"}'`),
            cmd('sleep 0.4; echo second >&2; exit 2'),
            cmd(`sleep 0.4; echo '{"decision":"allow"}'`),
            cmd('sleep 0.4; exit 1'),
          ],
        },
      ],
    });
    const started = performance.now();
    const r = await h.fire('PreToolUse', { tool_name: 'bash', tool_input: {} });
    expect(performance.now() - started).toBeLessThan(1400);
    expect(r).toMatchObject({ blocked: true, approved: false, reasons: ['first', 'second'] });
  });

  it('an explicit allow with no blocker approves', async () => {
    const h = hooks({ pre_tool_use: [{ hooks: [cmd(`echo '{"decision":"allow"}'`), cmd('true')] }] });
    expect(await h.fire('PreToolUse', { tool_name: 'bash' })).toMatchObject({ blocked: false, approved: true });
  });

  it('async hooks never block: fire returns before the hook ends, drain waits for it', async () => {
    const h = hooks({ session_start: [{ hooks: [cmd('sleep 0.8; touch done', { async: true })] }] });
    const started = performance.now();
    const r = await h.fire('SessionStart');
    expect(performance.now() - started).toBeLessThan(500);
    expect(r).toMatchObject({ async_started: 1, runs: [], blocked: false });
    expect(existsSync(join(dir, 'done'))).toBe(false);
    await h.drain();
    expect(existsSync(join(dir, 'done'))).toBe(true);
  });

  it('matches non-tool events on the agent name', async () => {
    const h = hooks({
      stall_detected: [
        { matcher: 'frontend', hooks: [cmd('touch no')] },
        { matcher: 'back.*', hooks: [cmd('cat > s.json')] },
      ],
    });
    await h.fire('StallDetected', { stall_duration_secs: 900, last_heartbeat_event: 'PostToolUse' });
    expect(existsSync(join(dir, 'no'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'StallDetected',
      stall_duration_secs: 900,
      last_heartbeat_event: 'PostToolUse',
    });
  });
});
