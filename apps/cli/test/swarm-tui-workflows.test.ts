/**
 * The dashboard's workflow overlay reads real runs: a `ship` run paused at its approval
 * gate by the built CLI, read back through core's workflowStatus by the dashboard's
 * poller (as `colony swarm start`'s dashboard wires it), becomes one line with its id,
 * name, state, current stage and the stage awaiting approval; approving it moves it on.
 */
import { readSessionStatus, workflowStatus } from '@swarm/core/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { pollSession } from '../src/commands/swarm/tui/_poll';
import { snapshotStore } from '../src/commands/swarm/tui/_store';
import { formatWorkflowLine, workflowLine } from '../src/commands/swarm/tui/_workflow-line';
import { SHIP, until, workflowRepo } from './_workflow';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('the dashboard workflow overlay', () => {
  it('lists the repository runs with state, current stage and awaiting approval, re-read on a timer', async () => {
    const w = workflowRepo();
    w.write('.colony/workflows/ship.yaml', SHIP);
    const id = w.colony(['swarm', 'workflow', 'run', 'ship', '--input', 'issue=7', '--json']).json().run_id as string;
    const store = snapshotStore(undefined, 0);
    const poller = pollSession(store, {
      root: w.repo,
      readStatus: readSessionStatus,
      readWorkflows: async () => (await workflowStatus({ cwd: w.repo, home: w.home })).map(workflowLine),
      tasksEveryMs: 200,
    });
    stops.push(
      () => poller.stop(),
      () => store.close(),
    );
    const paused = await until(() => store.current().workflows[0], 5000, 'the first workflow read');
    expect(paused).toEqual({
      run_id: id,
      name: 'ship',
      state: 'awaiting_approval',
      stage: 'review',
      awaiting: ['review'],
    });
    expect(formatWorkflowLine(paused)).toBe(`${id}  ship  awaiting_approval  stage review  awaiting approval: review`);
    expect(w.colony(['swarm', 'workflow', 'approve', id]).code).toBe(0);
    const done = await until(() => store.current().workflows.find((r) => r.state === 'completed'), 5000, 'the re-read');
    expect(done).toMatchObject({ run_id: id, stage: null, awaiting: [] });
    expect(formatWorkflowLine(done)).toBe(`${id}  ship  completed`);
  }, 30_000);
});
