/**
 * Iterations in coordination: the config's validation, scores from probe output, the
 * stop decision (target, error, no_progress, max_iterations), and a resume on a real
 * SQLite file keeping the numbering and the best score.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decide, parseIterationConfig, parseScore } from '../src/index';
import { createFixture, type Fixture } from './_fixture';

let f: Fixture | undefined;
afterEach(() => f?.close());

const progress = { patience: 2, direction: 'higher' as const };

describe('iteration progress', () => {
  it('reads a score from the last line, a JSON field or a passed-test count', () => {
    const probe = { parse: 'last_line' as const };
    expect(parseScore('running\nscore: 41.5\n', probe)).toBe(41.5);
    expect(parseScore('no number here', probe)).toBeNull();
    expect(parseScore('log\n{"summary":{"score":7}}\n', { parse: 'json', field: 'summary.score' })).toBe(7);
    expect(parseScore('Tests  12 passed | 3 failed', { parse: 'test_count' })).toBe(12);
  });

  it('stops on target first, then error, no_progress and max_iterations', () => {
    expect(decide({ best: 1, stale: 0 }, 10, 2, 10, { ...progress, target: 10 }).stop).toBe('target');
    expect(decide({ best: 1, stale: 0 }, null, 2, 10, progress).stop).toBe('error');
    const once = decide({ best: 5, stale: 0 }, 5, 2, 10, progress);
    expect(once).toMatchObject({ improved: false, stale: 1, stop: null });
    expect(decide(once, 5, 3, 10, progress).stop).toBe('no_progress');
    expect(decide({ best: 5, stale: 0 }, 6, 10, 10, progress)).toMatchObject({
      improved: true,
      stop: 'max_iterations',
    });
    expect(decide({ best: 5, stale: 0 }, 4, 2, 10, { ...progress, direction: 'lower' }).improved).toBe(true);
  });

  it('refuses a config with both or neither of agent and step, naming the field', () => {
    expect(parseIterationConfig('name: x\ntask: t\nprobe: { command: "echo 1" }\n')).toMatchObject({ ok: false });
    const bad = parseIterationConfig('name: x\ntask: t\nstep: { command: a }\nprobe: { parse: json, command: b }\n');
    expect(bad).toEqual({ ok: false, problems: ['config validation failed: probe.field: required with parse: json'] });
    const typo = parseIterationConfig('name: x\ntask: t\nstep: { comand: a }\nprobe: { command: b }\n');
    expect(typo.ok ? [] : typo.problems[0]).toMatch(/^config validation failed: step: /);
  });
});

describe('IterationService', () => {
  it('reopens a run, dropping an iteration its dead driver left unfinished', async () => {
    f = createFixture();
    const parsed = parseIterationConfig('name: x\ntask: t\nstep: { command: a }\nprobe: { command: b }\n');
    if (!parsed.ok) throw new Error('config');
    const run = await f.iterations.create(parsed.config, f.repo('r'), 3, { pid: 1, started: 1 });
    await f.iterations.start(run.run_id, 1);
    await f.iterations.finish(run.run_id, 1, { exit_code: 0, score: 4, improved: true, output: '', failed: false }, 4);
    await f.iterations.start(run.run_id, 2);
    expect(await f.iterations.reopen(run.run_id, { pid: 2, started: 2 }, 5, () => true)).toMatchObject({ ok: false });
    const reopened = await f.iterations.reopen(run.run_id, { pid: 2, started: 2 }, 5, () => false);
    expect(reopened).toMatchObject({ ok: true, run: { state: 'running', max_iterations: 5, best_score: 4 } });
    expect(reopened.ok && reopened.run.iterations.map((i) => [i.number, i.state, i.improved])).toEqual([
      [1, 'finished', true],
    ]);
  });
});
