/**
 * `colony swarm iterate` as real CLI processes on a temp repository, with a command
 * step and a probe command (no model): a probe that keeps the same score stops with
 * no_progress after the patience window, a rising score stops on its target, a run cut
 * by --max-iterations resumes with --resume, numbering on, and --dry-run runs nothing.
 * With --json every line is one JSON event.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workflowRepo } from './_workflow';

const COUNTER = `
step:
  command: 'echo $(( $(cat count 2>/dev/null || echo 0) + 1 )) > count'
probe:
  command: 'echo "score"; cat count'
`;

function events(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('colony swarm iterate', () => {
  it('stops with no_progress when the probe keeps giving the same score', () => {
    const w = workflowRepo();
    w.write(
      '.colony/iterations/flat.yaml',
      `name: flat\ntask: fix it\nstep: { command: "true" }\nprobe: { command: "echo 5" }\nprogress: { patience: 2 }\n`,
    );
    const out = w.colony(['swarm', 'iterate', '--config', 'flat', '--json', '--no-tui']);
    expect(out.code).toBe(0);
    const lines = events(out.stdout);
    expect(lines.map((l) => l.event)).toEqual(['start', 'iteration', 'iteration', 'iteration', 'done']);
    expect(lines.slice(1, 4).map((l) => l.improved)).toEqual([true, false, false]);
    expect(lines.at(-1)).toMatchObject({ done: true, reason: 'no_progress', iterations: 3, best_score: 5 });
  }, 30_000);

  it('stops on the target score, reading a JSON field', () => {
    const w = workflowRepo();
    w.write(
      'it.yaml',
      `name: rise\ntask: count\n${COUNTER.replace(`'echo "score"; cat count'`, `'echo "{\\"n\\": $(cat count)}"'`)}  parse: json\n  field: n\nprogress: { target: 3 }\n`,
    );
    const out = w.colony(['swarm', 'iterate', '--config-file', 'it.yaml', '--json']);
    const lines = events(out.stdout);
    expect(lines.filter((l) => l.event === 'iteration').map((l) => l.score)).toEqual([1, 2, 3]);
    expect(lines.at(-1)).toMatchObject({ reason: 'target', iterations: 3, best_score: 3 });
  }, 30_000);

  it('--resume continues after the last finished iteration; --dry-run runs nothing; flag conflicts exit 2', () => {
    const w = workflowRepo();
    w.write('.colony/iterations/count.yaml', `name: count\ntask: count\n${COUNTER}max_iterations: 2\n`);
    const dry = w.colony(['swarm', 'iterate', '--config', 'count', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('plan count');
    expect(existsSync(join(w.repo, 'count'))).toBe(false);
    const first = events(w.colony(['swarm', 'iterate', '--config', 'count', '--json']).stdout);
    const done = first.at(-1)!;
    expect(done).toMatchObject({ reason: 'max_iterations', iterations: 2, best_score: 2 });
    const resumed = events(
      w.colony(['swarm', 'iterate', '--resume', String(done.run_id), '--max-iterations', '4', '--json']).stdout,
    );
    expect(resumed[0]).toMatchObject({ event: 'start', run_id: done.run_id, first_iteration: 3, max_iterations: 4 });
    expect(resumed.filter((l) => l.event === 'iteration').map((l) => [l.iteration, l.score])).toEqual([
      [3, 3],
      [4, 4],
    ]);
    expect(resumed.at(-1)).toMatchObject({ reason: 'max_iterations', iterations: 4, best_score: 4 });
    const both = w.colony(['swarm', 'iterate', '--config', 'count', '--config-file', 'x.yaml']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--config and --config-file are mutually exclusive');
    const missing = w.colony(['swarm', 'iterate', '--config', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/config file not found at .*nope\.yaml/);
  }, 30_000);
});
