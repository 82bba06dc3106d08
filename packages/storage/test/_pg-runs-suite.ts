/**
 * The swarm, iteration and workflow run twins against SQLite (`_pg-parity.ts`), and the
 * guarded transitions raced across PgStores: exactly one winner each.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import * as sqliteIterationRuns from '../src/iteration-runs';
import { pgQueries as q } from '../src/pg/index';
import * as sqliteSwarmRuns from '../src/swarm-runs';
import * as sqliteWorkflowRuns from '../src/workflow-runs';
import { parity } from './_pg-parity';
import type { PgStoreContext } from './_pg-store';

const RUNS = { ...sqliteSwarmRuns, ...sqliteIterationRuns, ...sqliteWorkflowRuns };

const swarm = (id: string, over: object = {}) => ({
  id,
  repoRoot: '/r',
  baseRef: 'HEAD',
  baseCommit: 'abc',
  mergeStrategy: null,
  mergeTarget: null,
  pid: 42,
  pidStarted: 1234,
  spec: '{"a":1}',
  createdAt: 1,
  ...over,
});
const task = { state: 'executing', workspaceId: 'w', exitCode: null, elapsedMs: 5, startCommit: 'c', pgid: 7 };
const workflow = (id: string, createdAt: number, repoRoot = '/r') => ({
  id,
  name: 'wf',
  repoRoot,
  definition: '{}',
  inputs: '{}',
  createdAt,
});

export function runsSuite(ctx: PgStoreContext): void {
  it('keeps swarm runs as SQLite does: ids taken once, tasks, interrupts, ordered lists', async () => {
    const p = await parity(ctx, RUNS);
    const tasks = [
      { name: 'a', branch: 'colony/a' },
      { name: 'b', branch: 'colony/b' },
      { name: 'c', branch: 'colony/c' },
    ];
    expect(await p.call('insertSwarmRun', { ...swarm('s-b'), state: 'failed', result: 'x' }, tasks)).toBe(true);
    expect(await p.call('insertSwarmRun', swarm('s-b'), [])).toBe(false);
    expect(await p.call('insertSwarmRun', swarm('s-a', { repoRoot: '/q', pidStarted: null }), [])).toBe(true);
    expect(await p.call('insertSwarmRun', swarm('s-B'), tasks.slice(0, 1))).toBe(true);
    // Fields the statement does not name (a whole task row) are not written.
    const extra = { branch: 'other', position: 9, swarmId: 's-a' };
    await p.call('updateSwarmTask', 's-b', { ...task, ...extra, name: 'a', pgidStarted: 99 }, 10);
    await p.call('updateSwarmTask', 's-b', { ...task, name: 'b', state: 'done', exitCode: 0, pgidStarted: null }, 11);
    await p.call('updateSwarmTask', 's-b', { ...task, name: 'zz', pgidStarted: null }, 11);
    expect(await p.call('interruptSwarmTasks', 's-b', 12)).toBe(2);
    expect(await p.call('interruptSwarmTasks', 's-b', 13)).toBe(0);
    expect(await p.call('swarmTasksOf', 's-b')).toMatchObject([
      { name: 'a', state: 'interrupted', pgid: 7, pgidStarted: 99, updatedAt: 12, branch: 'colony/a' },
      { name: 'b', state: 'done', exitCode: 0, position: 1 },
      { name: 'c', state: 'interrupted', elapsedMs: 0, workspaceId: null },
    ]);
    await p.call('clearSwarmTaskGroups', 's-b');
    expect(await p.call('swarmTasksOf', 's-b')).toMatchObject([{ pgid: null, pgidStarted: null }, {}, {}]);
    expect(await p.call('swarmTasksOf', 'nope')).toEqual([]);
    expect(await p.call('runningSwarmRuns')).toMatchObject([{ id: 's-B' }, { id: 's-a' }, { id: 's-b' }]);
    expect(await p.call('runningSwarmRuns', '/q')).toMatchObject([{ id: 's-a', pidStarted: null }]);
    expect(await p.call('finishSwarmRun', 's-b', 'completed', '{"ok":true}', 20)).toBe(true);
    expect(await p.call('finishSwarmRun', 's-b', 'failed', null, 21)).toBe(false);
    expect(await p.call('finishSwarmRun', 'nope', 'failed', null, 21)).toBe(false);
    expect(await p.call('getSwarmRun', 's-b')).toMatchObject({
      state: 'completed',
      result: '{"ok":true}',
      finishedAt: 20,
    });
    expect(await p.call('getSwarmRun', 'nope')).toBeUndefined();
    expect(await p.call('swarmRunsInState', 'completed')).toHaveLength(1);
    expect(await p.call('swarmRunsInState', 'running', '/r')).toMatchObject([{ id: 's-B' }]);
    expect(await p.call('swarmRunsInState', 'interrupted')).toEqual([]);
  });

  it('keeps iteration runs as SQLite does: resume drops an unfinished iteration', async () => {
    const p = await parity(ctx, RUNS);
    const run = { id: 'i1', name: 'n', repoRoot: '/r', config: '{}', maxIterations: 3, pid: 1, pidStarted: null };
    expect(await p.call('insertIterationRun', { ...run, createdAt: 5 })).toBe(true);
    expect(await p.call('insertIterationRun', { ...run, createdAt: 6 })).toBe(false);
    await p.call('startIteration', 'i1', 1, 10);
    await p.call('startIteration', 'i1', 1, 11);
    const done = { number: 1, state: 'done', exitCode: 0, score: 0.5, improved: true, output: 'ok' };
    await p.call('finishIteration', 'i1', done, 0.5, 12);
    await p.call('startIteration', 'i1', 2, 13);
    expect(await p.call('iterationsOf', 'i1')).toMatchObject([
      { number: 1, startedAt: 11, finishedAt: 12, improved: true, score: 0.5 },
      { number: 2, state: 'running', improved: false, exitCode: null },
    ]);
    await p.call('stopIterationRun', 'i1', 'killed', 14);
    expect(await p.call('getIterationRun', 'i1')).toMatchObject({ state: 'stopped', reason: 'killed', bestScore: 0.5 });
    await p.call('reopenIterationRun', 'i1', { pid: 2, pidStarted: 77, maxIterations: 9 }, 15);
    expect(await p.call('getIterationRun', 'i1')).toMatchObject({ state: 'running', reason: null, maxIterations: 9 });
    expect(await p.call('iterationsOf', 'i1')).toMatchObject([{ number: 1 }]);
    expect(await p.call('getIterationRun', 'nope')).toBeUndefined();
    expect(await p.call('iterationsOf', 'nope')).toEqual([]);
  });

  it('keeps workflow runs as SQLite does: guarded transitions, newest first with ties by id', async () => {
    const p = await parity(ctx, RUNS);
    const stages = [
      { name: 'build', type: 'command' },
      { name: 'review', type: 'gate' },
    ];
    expect(await p.call('insertWorkflowRun', workflow('w-a', 5), stages)).toBe(true);
    expect(await p.call('insertWorkflowRun', workflow('w-a', 6), [])).toBe(false);
    for (const id of ['w-c', 'w-B', 'w-b']) await p.call('insertWorkflowRun', workflow(id, 7, '/q'), []);
    expect(await p.call('listWorkflowRuns')).toMatchObject([
      { id: 'w-c' },
      { id: 'w-b' },
      { id: 'w-B' },
      { id: 'w-a' },
    ]);
    expect(await p.call('listWorkflowRuns', undefined, 2)).toHaveLength(2);
    expect(await p.call('listWorkflowRuns', '/r')).toMatchObject([{ id: 'w-a', state: 'pending', pid: null }]);
    expect(await p.call('workflowStagesOf', 'w-a')).toMatchObject([{ name: 'build', position: 0 }, { position: 1 }]);
    const start = { state: 'running', pid: 3, pidStarted: 4 };
    expect(await p.call('setWorkflowRunState', 'w-a', ['running'], start, 8)).toBe(false);
    expect(await p.call('setWorkflowRunState', 'w-a', ['pending'], start, 8)).toBe(true);
    expect(await p.call('setWorkflowRunState', 'nope', ['pending'], start, 8)).toBe(false);
    const end = { state: 'failed', error: 'boom', finishedAt: 9 };
    expect(await p.call('setWorkflowRunState', 'w-a', ['running'], end, 9)).toBe(true);
    expect(await p.call('getWorkflowRun', 'w-a')).toMatchObject({ pid: 3, pidStarted: 4, error: 'boom', updatedAt: 9 });
    expect(await p.call('getWorkflowRun', 'nope')).toBeUndefined();
    const run = { state: 'running', attempts: 1, startedAt: 10, pgid: 5, exitCode: undefined };
    expect(await p.call('setWorkflowStage', 'w-a', 'build', ['running'], run, 10)).toBe(false);
    expect(await p.call('setWorkflowStage', 'w-a', 'build', ['pending'], run, 10)).toBe(true);
    expect(await p.call('setWorkflowStage', 'w-a', 'nope', ['pending'], run, 10)).toBe(false);
    expect(await p.call('setWorkflowStage', 'w-a', 'build', ['running'], { state: 'done', exitCode: 0 }, 11)).toBe(
      true,
    );
    expect(await p.call('workflowStagesOf', 'w-a')).toMatchObject([
      { state: 'done', attempts: 1, startedAt: 10, pgid: 5, exitCode: 0, updatedAt: 11 },
      { state: 'pending', attempts: 0 },
    ]);
    expect(await p.call('workflowStagesOf', 'nope')).toEqual([]);
  });

  it('lets exactly one of several racing stores finish a swarm run or move a workflow run', async () => {
    const p = await parity(ctx, RUNS);
    await p.pg.write(() => q.insertSwarmRun(p.pg, swarm('race'), []));
    await p.pg.write(() => q.insertWorkflowRun(p.pg, workflow('race', 1), []));
    const stores = await Promise.all([1, 2, 3, 4].map(() => ctx.open({ url: p.url })));
    const finished = await Promise.all(
      stores.map((s, i) => s.write(() => q.finishSwarmRun(s, 'race', 'completed', `{"by":${i}}`, i))),
    );
    expect(finished.filter(Boolean)).toHaveLength(1);
    // A lock held on the row makes every store read `pending` before any may update it.
    const admin = new pg.Client({ connectionString: p.url });
    await admin.connect();
    await admin.query(`BEGIN; SELECT 1 FROM workflow_runs WHERE id = 'race' FOR UPDATE`);
    const racing = stores.map((s, i) =>
      s.write(() => q.setWorkflowRunState(s, 'race', ['pending'], { state: i % 2 ? 'approved' : 'cancelled' }, i)),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await admin.query('COMMIT');
    await admin.end();
    const moved = await Promise.all(racing);
    expect(moved.filter(Boolean)).toHaveLength(1);
  });
}
