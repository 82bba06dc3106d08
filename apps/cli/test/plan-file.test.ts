/**
 * The plan file `colony plan publish` reads: JSON or YAML, a relative repo_root
 * resolved against the file's folder, refusals as INVALID_PARAMETERS.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlanDocument } from '@swarm/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPlanFile } from '../src/_plan-file';

let dir: string;
let repo: string;

const plan = (extra: Partial<PlanDocument> = {}): PlanDocument => ({
  repo_root: repo,
  slug: 'script-plan',
  title: 'From a script',
  problem: 'CI wants to hand out work.',
  acceptance_criteria: ['two lanes done'],
  subtasks: [
    { title: 'Lane A', description: 'a', file_scope: ['src/a.ts'], capability_hint: 'api_work' },
    { title: 'Lane B', description: 'b', file_scope: ['src/b.ts'], depends_on: [0] },
  ],
  ...extra,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'colony-plan-file-'));
  repo = join(dir, 'repo');
  mkdirSync(repo);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadPlanFile', () => {
  it('reads JSON and YAML, resolving a relative repo_root against the file', () => {
    const json = join(repo, 'plan.json');
    writeFileSync(json, JSON.stringify({ ...plan(), repo_root: '.' }));
    expect(loadPlanFile(json)).toEqual({ ...plan(), repo_root: repo });
    const yaml = join(dir, 'plans', 'plan.yml');
    mkdirSync(join(dir, 'plans'));
    writeFileSync(yaml, 'repo_root: ../repo\nslug: from-yaml\nsubtasks:\n  - title: A\n    file_scope: [a.ts]\n');
    expect(loadPlanFile(yaml)).toEqual({
      repo_root: repo,
      slug: 'from-yaml',
      subtasks: [{ title: 'A', file_scope: ['a.ts'] }],
    });
    const absolute = join(dir, 'abs.yaml');
    writeFileSync(absolute, `repo_root: ${repo}\nslug: abs\n`);
    expect(loadPlanFile(absolute).repo_root).toBe(repo);
  });

  it('tries JSON then YAML for other extensions, and refuses what is neither or not one object', () => {
    const txt = join(dir, 'plan.txt');
    writeFileSync(txt, 'slug: plain\n');
    expect(loadPlanFile(txt)).toEqual({ slug: 'plain' });
    writeFileSync(txt, 'slug: [unclosed\n');
    expect(() => loadPlanFile(txt)).toThrow(/not valid JSON or YAML/);
    const list = join(dir, 'list.json');
    writeFileSync(list, '[1, 2]');
    expect(() => loadPlanFile(list)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETERS' }));
    expect(() => loadPlanFile(join(dir, 'missing.yaml'))).toThrow(/ENOENT/);
  });
});
