/**
 * `colony plan publish` and `colony plan list` as real OS processes on a temporary
 * database and repository: JSON and YAML plan files, a dry run that writes nothing and
 * fails CI when publishing would be refused, refusals as one line, --json values.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openColony } from '@swarm/core';
import { describe, expect, it } from 'vitest';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'colony-cli-plans-'));
const db = join(dir, 'colony.db');
const home = join(dir, 'home');
const repo = join(dir, 'repo');
mkdirSync(repo);

function colony(args: string[], cwd = dir) {
  const result = spawnSync(process.execPath, [CLI, ...args, '--db', db, '--home', home], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, COLONY_HOME: home, NO_COLOR: '1' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, json: () => JSON.parse(result.stdout) };
}

/** How many plans the database holds, read in-process. */
const plans = async () => {
  const lib = openColony({ home, dbPath: db, receipts: false, roots: [tmpdir()] });
  try {
    return (await lib.plans.list({ limit: 100 })).length;
  } finally {
    await lib.close();
  }
};

const YAML_PLAN = `# a plan as CI writes it
repo_root: .
slug: widget-page
title: Add widget page
problem: No widget page exists yet.
acceptance_criteria:
  - Widget page renders
subtasks:
  - title: Build widget API
    description: Add GET /api/widgets.
    file_scope: [apps/api/src/widgets.ts]
    capability_hint: api_work
  - title: Build widget page
    description: Render the list.
    file_scope: [apps/web/src/widgets.tsx]
    depends_on: [0]
    capability_hint: ui_work
  - title: Verify release
    description: End-to-end check.
    file_scope: [apps/api/test/widgets.test.ts]
    depends_on: [1]
    capability_hint: test_work
`;

function writePlan(name: string, text: string): string {
  const path = join(repo, name);
  writeFileSync(path, text);
  return path;
}

describe('colony plan publish', () => {
  it('dry-runs a YAML plan: waves and branches printed, nothing written', async () => {
    const file = writePlan('plan.yaml', YAML_PLAN);
    const out = colony(['plan', 'publish', file, '--dry-run']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      [
        'dry run: plan widget-page would publish 3 sub-tasks in 3 waves (nothing written)',
        '  sub-0  wave 1  spec/widget-page/sub-0  Build widget API',
        '  sub-1  wave 2  spec/widget-page/sub-1  Build widget page',
        '  sub-2  wave 3  spec/widget-page/sub-2  Verify release',
        '',
      ].join('\n'),
    );
    expect(await plans()).toBe(0);
    expect(existsSync(join(repo, 'openspec'))).toBe(false);
  });

  it('publishes it, with repo_root relative to the file, and refuses the same slug again', () => {
    const file = join(repo, 'plan.yaml');
    const out = colony(['plan', 'publish', file, '--session', 'ci-1', '--agent', 'ci']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(
      new RegExp(
        `^published plan widget-page: spec task #\\d+ \\(${repo}/openspec/changes/widget-page/CHANGE.md\\), 3 sub-tasks\\n`,
      ),
    );
    expect(out.stdout).toMatch(/ {2}sub-2 {2}#\d+ {2}spec\/widget-page\/sub-2 {2}Verify release\n$/);
    expect(existsSync(join(repo, 'openspec/changes/widget-page/CHANGE.md'))).toBe(true);
    const again = colony(['plan', 'publish', file]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(
      `colony: PLAN_ALREADY_PUBLISHED: plan "widget-page" is already published in ${repo}: pick another slug\n`,
    );
  });

  it('publishes a JSON plan into the current directory when it names no repo_root, --json printing the value', () => {
    const file = writePlan(
      'small.json',
      JSON.stringify({
        slug: 'small-plan',
        title: 'Small',
        problem: 'Two files.',
        acceptance_criteria: ['done'],
        subtasks: [
          { title: 'A', description: 'a', file_scope: ['a.ts'] },
          { title: 'B', description: 'b', file_scope: ['b.ts'] },
        ],
      }),
    );
    const out = colony(['plan', 'publish', file, '--json'], repo);
    expect(out.code, out.stderr).toBe(0);
    expect(out.json()).toEqual({
      plan_slug: 'small-plan',
      spec_task_id: expect.any(Number),
      spec_change_path: join(repo, 'openspec/changes/small-plan/CHANGE.md'),
      subtasks: [
        { subtask_index: 0, branch: 'spec/small-plan/sub-0', task_id: expect.any(Number), title: 'A' },
        { subtask_index: 1, branch: 'spec/small-plan/sub-1', task_id: expect.any(Number), title: 'B' },
      ],
    });
  });

  it('fails a dry run that publishing would refuse, naming the code and the finding', async () => {
    const file = writePlan(
      'clash.yaml',
      YAML_PLAN.replace('slug: widget-page', 'slug: clash')
        .replace('apps/web/src/widgets.tsx', 'apps/api/src/widgets.ts')
        .replace('depends_on: [0]', 'depends_on: []'),
    );
    const before = await plans();
    const out = colony(['plan', 'publish', file, '--dry-run']);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('dry run: plan clash would be refused with PLAN_WAVE_SCOPE_OVERLAP (nothing written)');
    expect(out.stdout).toContain(
      'error: PLAN_WAVE_SCOPE_OVERLAP: sub-tasks 0 and 1 are both in wave 1 and share apps/api/src/widgets.ts',
    );
    expect(out.stderr).toBe('colony: PLAN_WAVE_SCOPE_OVERLAP: plan clash would be refused\n');
    const json = colony(['plan', 'publish', file, '--dry-run', '--json']);
    expect(json.code).toBe(1);
    expect(json.json()).toMatchObject({
      dry_run: true,
      refusal: 'PLAN_WAVE_SCOPE_OVERLAP',
      validation: { partition_clean: false },
    });
    const real = colony(['plan', 'publish', file]);
    expect(real.stderr).toMatch(/^colony: PLAN_WAVE_SCOPE_OVERLAP: plan "clash" refused: /);
    expect(await plans()).toBe(before);
  });

  it('refuses unreadable and malformed files in one line', () => {
    const missing = colony(['plan', 'publish', join(repo, 'nope.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^colony: ENOENT: no such file or directory/);
    const broken = colony(['plan', 'publish', writePlan('broken.json', '{ "slug": ')]);
    expect(broken.stderr).toMatch(/^colony: INVALID_PARAMETERS: .*broken\.json is not valid JSON/);
    const list = colony(['plan', 'publish', writePlan('list.yaml', '- a\n- b\n')]);
    expect(list.stderr).toMatch(/must hold one plan object/);
    const incomplete = colony(['plan', 'publish', writePlan('incomplete.yaml', 'slug: x\n')]);
    expect(incomplete.code).toBe(1);
    expect(incomplete.stderr).toMatch(/^colony: INVALID_PARAMETERS: /);
  });
});

describe('colony plan list', () => {
  it('lists plans with progress and the sub-tasks claimable next', () => {
    const out = colony(['plan', 'list']);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^small-plan +active +0\/2 completed +next: sub-0, sub-1 +\//);
    expect(lines[1]).toMatch(/^widget-page +active +0\/3 completed +next: sub-0 \(api_work\) +\//);
    expect(
      colony(['plan', 'list', '--capability', 'api_work', '--json'])
        .json()
        .map((p: { plan_slug: string }) => p.plan_slug),
    ).toEqual(['widget-page']);
    expect(colony(['plan', 'list', '--repo-root', join(dir, 'elsewhere')]).stdout).toBe('no plans\n');
    expect(colony(['plan', 'list', '--limit', 'x']).code).toBe(2);
  });
});
