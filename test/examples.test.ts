/**
 * The examples are documentation that runs: each is executed as its own process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (file: string, args: string[] = []) =>
  execFileSync(process.execPath, [join(root, 'examples', file), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, COLONY_HOME: mkdtempSync(join(tmpdir(), 'colony-example-home-')) },
  });

describe('examples', () => {
  it('two-agents-demo shares memory between two MCP server processes', () => {
    const out = run('two-agents-demo.mjs');
    expect(out).toMatch(/claude\s+opened task #\d+/);
    expect(out).toMatch(/codex\s+search "rate limiter" -> \d+ compact hits/);
    expect(out).toMatch(/\[failed_approach\] Run \d+: a global mutex/);
    expect(out).toContain("sees codex's reply from the other process");
  });

  it('library-agent-loop drives colony through handleToolCall from OpenAI tool schemas', () => {
    const out = run('library-agent-loop.mjs');
    expect(out).toContain('framework registered 17 colony tools');
    expect(out).toMatch(/task_post -> ok: \{"id":\d+/);
    expect(out).toMatch(/search -> ok: \[\{"id":\d+,"session_id":"myagent-1","kind":"decision"/);
    expect(out).toContain('task_post -> error INVALID_PARAMETERS');
  });

  it('plan-from-script publishes a YAML plan from a script and two agents work it wave by wave', () => {
    const out = run('plan-from-script.mjs');
    expect(out).toContain('dry run: would publish; waves 0 1 1 2');
    expect(out).toContain('published add-widget-page: 4 sub-tasks on spec/add-widget-page/sub-N');
    expect(out).toMatch(/wave 0: \w+ completed sub-0 \(packages\/storage\/src\/widgets\.ts\), unblocked 1, 2/);
    expect(out).toMatch(/wave 1: claude completed sub-1 .*\nwave 1: codex completed sub-2 .*, unblocked 3/);
    expect(out).toContain('plan add-widget-page: 4/4 completed');
  });
});
