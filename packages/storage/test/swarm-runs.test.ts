/**
 * Swarm runs and tasks: an id is taken by its insert, tasks update in place (their process
 * group included), a run finishes once, a dead run's unfinished tasks read interrupted.
 */
import { expect, it } from 'vitest';
import {
  clearSwarmTaskGroups,
  finishSwarmRun,
  getSwarmRun,
  insertSwarmRun,
  interruptSwarmTasks,
  runningSwarmRuns,
  swarmTasksOf,
  updateSwarmTask,
} from '../src/index';
import { describeMatrix } from './_matrix';

const run = {
  id: 'swarm-20260101-000000',
  repoRoot: '/r',
  baseRef: 'HEAD',
  baseCommit: 'abc',
  mergeStrategy: null,
  mergeTarget: null,
  pid: 42,
  pidStarted: 1234,
  spec: '{}',
  createdAt: 1,
};

describeMatrix('swarm_runs', ({ open }) => {
  it('takes an id once, records task progress, and finishes a running run once', async () => {
    const store = open();
    const tasks = [
      { name: 'a', branch: 'colony/x/a' },
      { name: 'b', branch: 'colony/x/b' },
    ];
    expect(await store.write(() => insertSwarmRun(store, run, tasks))).toBe(true);
    expect(await store.write(() => insertSwarmRun(store, run, tasks))).toBe(false);
    await store.write(() =>
      updateSwarmTask(
        store,
        run.id,
        {
          name: 'b',
          state: 'executing',
          workspaceId: '/w/b',
          exitCode: null,
          elapsedMs: 5,
          startCommit: 'c1',
          pgid: 4242,
          pgidStarted: 777,
        },
        2,
      ),
    );
    expect(swarmTasksOf(store, run.id).map((t) => [t.name, t.state, t.workspaceId])).toEqual([
      ['a', 'pending', null],
      ['b', 'executing', '/w/b'],
    ]);
    expect(runningSwarmRuns(store, '/r').map((r) => r.id)).toEqual([run.id]);
    expect(await store.write(() => finishSwarmRun(store, run.id, 'interrupted', null, 3))).toBe(true);
    expect(await store.write(() => interruptSwarmTasks(store, run.id, 3))).toBe(2);
    expect(swarmTasksOf(store, run.id).map((t) => [t.name, t.state, t.pgid, t.pgidStarted])).toEqual([
      ['a', 'interrupted', null, null],
      ['b', 'interrupted', 4242, 777],
    ]);
    await store.write(() => clearSwarmTaskGroups(store, run.id));
    expect(swarmTasksOf(store, run.id)[1]?.pgid).toBeNull();
    expect(await store.write(() => finishSwarmRun(store, run.id, 'completed', '{}', 4))).toBe(false);
    expect(getSwarmRun(store, run.id)).toMatchObject({ state: 'interrupted', pid: 42, pidStarted: 1234 });
    expect(runningSwarmRuns(store)).toEqual([]);
  });
});
