/**
 * Workflows in coordination: the definition rules with seed 003's messages, input
 * substitution, and the run transitions on a real SQLite file (claim, pause, approve,
 * reject re-running the stages before the gate, retry of an interrupted run, cancel).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseInputPairs, parseWorkflow, resolveInputs, substituteShell, type WorkflowDefinition } from '../src/index';
import { createFixture, type Fixture } from './_fixture';

let f: Fixture | undefined;
afterEach(() => f?.close());

const problems = (text: string) => {
  const parsed = parseWorkflow(text, 'wf');
  return parsed.ok ? [] : parsed.problems.map((p) => p.message);
};

function definition(text: string): WorkflowDefinition {
  const parsed = parseWorkflow(text, 'wf');
  if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
  return parsed.definition;
}

const GATED = `
stages:
  - { name: implement, prompt: "do it" }
  - { name: build, type: command, command: make, depends_on: [implement] }
  - { name: review, type: approval, depends_on: [build] }
  - { name: ship, type: command, argv: [echo, ship], depends_on: [review] }
`;

describe('workflow definitions', () => {
  it('answers the seed messages for cycles, duplicates, names, unknown deps and YAML errors', () => {
    expect(
      problems(
        'stages:\n  - { name: a, type: command, command: x, depends_on: [c] }\n  - { name: b, type: command, command: x, depends_on: [a] }\n  - { name: c, type: command, command: x, depends_on: [b] }\n',
      ),
    ).toEqual(['circular dependency detected in workflow stages: a -> c -> b -> a']);
    expect(problems('stages:\n  - { name: a, prompt: x }\n  - { name: a, prompt: y }\n')).toEqual([
      'duplicate stage name: a',
    ]);
    expect(problems('stages:\n  - { name: 9x, prompt: x, depends_on: [zz] }\n')).toEqual([
      "invalid stage name '9x': must match [a-z][a-z0-9_-]*",
      "unknown dependency 'zz' in stage '9x'",
    ]);
    expect(problems('stages: [')[0]).toMatch(/^failed to parse workflow: /);
    expect(problems('stages:\n  - { name: a, type: approval, timeout: 3 }\n')[0]).toMatch(
      /^workflow validation failed: stages\.0: /,
    );
  });

  it('defaults the type to agent and the name to the file name', () => {
    const def = definition('inputs: [issue]\nstages:\n  - { name: a, prompt: x }\n');
    expect(def).toMatchObject({ name: 'wf', inputs: [{ name: 'issue' }], stages: [{ type: 'agent', depends_on: [] }] });
  });

  it('checks inputs and quotes them in shell strings', () => {
    const def = definition('inputs: [issue, { name: env, default: dev }]\nstages:\n  - { name: a, prompt: x }\n');
    expect(resolveInputs(def, {})).toEqual({ ok: false, reason: 'missing input --input issue=...' });
    expect(resolveInputs(def, { issue: '1', typo: '2' })).toMatchObject({ ok: false });
    expect(resolveInputs(def, { issue: '1' })).toEqual({ ok: true, inputs: { issue: '1', env: 'dev' } });
    expect(parseInputPairs(['a=b=c'])).toEqual({ ok: true, inputs: { a: 'b=c' } });
    expect(substituteShell('echo {{inputs.x}}', { inputs: { x: "a; rm -rf / 'q'" } })).toBe(
      `echo 'a; rm -rf / '\\''q'\\'''`,
    );
  });
});

describe('WorkflowService transitions', () => {
  const alive = () => true;
  const dead = () => false;
  const me = { pid: 1, started: 1 };

  it('pauses at the gate, approves, and refuses an approve of a run not awaiting one', async () => {
    f = createFixture();
    const run = await f.workflows.create(definition(GATED), f.repo('r'), {});
    expect(await f.workflows.claim(run.run_id, me)).toEqual({ ok: true });
    for (const s of ['implement', 'build']) {
      await f.workflows.startStage(run.run_id, s);
      await f.workflows.finishStage(run.run_id, s, { state: 'completed', exit_code: 0, output: '' });
    }
    expect(await f.workflows.pause(run.run_id, 'review')).toBe(true);
    expect(await f.workflows.view(run.run_id)).toMatchObject({ state: 'awaiting_approval', driver: null });
    const approved = await f.workflows.approve(run.run_id);
    expect(approved).toMatchObject({ ok: true, stages: ['review'], run: { state: 'pending' } });
    expect(await f.workflows.approve(run.run_id)).toEqual({
      ok: false,
      reason: `run ${run.run_id} is pending, not awaiting approval`,
    });
  });

  it('reject sends the stages back to the previous gate to pending with the feedback', async () => {
    f = createFixture();
    const run = await f.workflows.create(definition(GATED), f.repo('r'), {});
    await f.workflows.claim(run.run_id, me);
    for (const s of ['implement', 'build']) {
      await f.workflows.startStage(run.run_id, s);
      await f.workflows.finishStage(run.run_id, s, { state: 'completed', exit_code: 0, output: '' });
    }
    await f.workflows.pause(run.run_id, 'review');
    const rejected = await f.workflows.reject(run.run_id, 'add tests', 'review');
    expect(rejected).toMatchObject({ ok: true, run: { state: 'pending', feedback: 'add tests' } });
    const view = await f.workflows.view(run.run_id)!;
    expect(view.stages.map((s) => s.state)).toEqual(['pending', 'pending', 'pending', 'pending']);
  });

  it('an interrupted run is retried with its process group answered, and cancel closes open stages', async () => {
    f = createFixture();
    const run = await f.workflows.create(definition(GATED), f.repo('r'), {});
    await f.workflows.claim(run.run_id, me);
    await f.workflows.startStage(run.run_id, 'implement');
    await f.workflows.recordGroup(run.run_id, 'implement', 4242, 77);
    expect(await f.workflows.retry(run.run_id, alive)).toMatchObject({ ok: false });
    const retried = await f.workflows.retry(run.run_id, dead);
    expect(retried).toMatchObject({
      ok: true,
      stages: ['implement'],
      groups: [{ stage: 'implement', pgid: 4242, started: 77 }],
    });
    expect((await f.workflows.view(run.run_id)!).stages[0]).toMatchObject({
      state: 'pending',
      attempts: 1,
      group: null,
    });
    const cancelled = await f.workflows.cancel(run.run_id, alive);
    expect(cancelled).toMatchObject({ ok: true, run: { state: 'cancelled' } });
    expect(await f.workflows.cancel(run.run_id, alive)).toEqual({
      ok: false,
      reason: `run ${run.run_id} is already cancelled`,
    });
  });
});
