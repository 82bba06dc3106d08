/**
 * `colony memory index` as a real OS process: it embeds every observation without a
 * vector, reports what it did (human or --json), and a second run embeds nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cliStore } from './_cli';

const { dir, colony, tool } = cliStore('colony-cli-index-');
let observations = 0;

beforeAll(async () => {
  const { task_id } = await tool('task_thread', {
    repo_root: dir,
    branch: 'main',
    session_id: 'claude-1',
    agent: 'claude',
  });
  for (const content of ['Stale claims linger after relays', 'Dark mode toggle', 'Quota cleanup job']) {
    await tool('task_post', { task_id, session_id: 'claude-1', kind: 'note', content });
  }
  observations = colony(['status', '--json']).json().observations;
});

describe('colony memory index', () => {
  it('embeds every observation once, then nothing on a second run', () => {
    const first = colony(['memory', 'index', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json()).toMatchObject({
      embedder_id: 'hash-v1-256',
      dims: 256,
      embedded: observations,
      vectors: observations,
      observations,
      disabled_reason: null,
    });
    const second = colony(['memory', 'index', '--json']).json();
    expect(second).toMatchObject({ embedded: 0, vectors: observations });
  });

  it('prints a short report for people', () => {
    const run = colony(['memory', 'index']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/embedder\s+hash-v1-256/);
    expect(run.stdout).toMatch(new RegExp(`vectors\\s+${observations} of ${observations} observations`));
  });

  it('names its sub-commands when called bare', () => {
    const run = colony(['memory']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('index');
  });
});
