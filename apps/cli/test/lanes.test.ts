/**
 * `colony lanes` as a real OS process on a temporary store, with colony's clock read
 * from COLONY_CLOCK_FILE (the CLI and the in-process set-up share it): live lanes of a
 * repository, dead ones only with --all, --json as the hivemind payload, usage errors.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliStore } from './_cli';

const { dir, colony, tool } = cliStore('colony-cli-lanes-');
const repo = join(dir, 'repo');
const clockFile = join(dir, 'clock');
const START = Date.UTC(2026, 3, 23, 8);
const previousClock = process.env.COLONY_CLOCK_FILE;

beforeAll(async () => {
  mkdirSync(repo);
  writeFileSync(clockFile, String(START));
  process.env.COLONY_CLOCK_FILE = clockFile;
  const thread = await tool('task_thread', {
    repo_root: repo,
    branch: 'agent/codex/live-task',
    session_id: 'codex-1',
    agent: 'codex',
    title: 'Expose runtime tasks',
  });
  await tool('task_claim_file', { task_id: thread.task_id, session_id: 'codex-1', file_path: 'src/live.ts' });
});

afterAll(() => {
  if (previousClock === undefined) delete process.env.COLONY_CLOCK_FILE;
  else process.env.COLONY_CLOCK_FILE = previousClock;
});

describe('colony lanes', () => {
  it('prints the live lanes of --repo-root, one line each; --json is the hivemind payload', () => {
    const human = colony(['lanes', '--repo-root', 'repo']);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`1 lanes in ${repo} (1 working)`);
    expect(lines[1]).toMatch(
      /^working +codex\/codex +agent\/codex\/live-task +Expose runtime tasks +1 files: src\/live\.ts +codex-1$/,
    );
    const json = colony(['lanes', '--repo-root', 'repo', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json()).toMatchObject({
      repo_roots: [repo],
      session_count: 1,
      sessions: [{ session_id: 'codex-1', activity: 'working', source: 'colony-session' }],
    });
  });

  it('defaults to the current directory and shows dead lanes only with --all', () => {
    expect(colony(['lanes']).stdout.trimEnd()).toBe(`0 lanes in ${dir}`);
    writeFileSync(clockFile, String(START + 2 * 60 * 60_000));
    expect(colony(['lanes', '--repo-root', 'repo']).stdout.trimEnd()).toBe(`0 lanes in ${repo}`);
    const all = colony(['lanes', '--repo-root', 'repo', '--all']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^1 lanes in .* \(1 dead\)\ndead! +codex\/codex /);
  });

  it('refuses a malformed --limit as a usage error and one over 100 as the tool does', () => {
    expect(colony(['lanes', '--limit', 'many']).code).toBe(2);
    const tooMany = colony(['lanes', '--limit', '101']);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toMatch(/INVALID_PARAMETERS/);
  });
});
