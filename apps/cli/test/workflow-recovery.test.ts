/**
 * `colony swarm workflow` runs outliving or losing their process, as real CLI processes:
 * a driver killed mid-stage leaves the run interrupted and retry kills its orphaned
 * process group and finishes it; cancel from another process kills a running stage and
 * ends its driver; run --detach hands the run to a background driver.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { groupAlive, SHIP, until, workflowRepo } from './_workflow';

describe('colony swarm workflow recovery', () => {
  it('a driver killed mid-stage leaves the run interrupted; retry kills its orphaned processes and finishes it', async () => {
    const w = workflowRepo();
    w.write(
      '.colony/workflows/slow.yaml',
      `
stages:
  - name: wait
    type: command
    command: "if [ -f marker ]; then echo second; else touch marker; sleep 60; fi"
    timeout: 120
`,
    );
    const child = w.spawn(['swarm', 'workflow', 'run', 'slow']);
    const running = await until(
      () => {
        const [run] = w.colony(['swarm', 'workflow', 'status', '--json']).json();
        return run?.stages[0].group ? run : false;
      },
      15_000,
      'the stage to run',
    );
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const pgid = running.stages[0].group.pgid as number;
    expect(groupAlive(pgid)).toBe(true);
    const dead = w.colony(['swarm', 'workflow', 'status', running.run_id, '--json']).json();
    expect(dead.state).toBe('interrupted');
    expect(dead.stages[0].state).toBe('interrupted');
    const retried = w.colony(['swarm', 'workflow', 'retry', running.run_id]);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain("killed stage wait's processes");
    expect(groupAlive(pgid)).toBe(false);
    const done = w.colony(['swarm', 'workflow', 'status', running.run_id, '--json']).json();
    expect(done.state).toBe('completed');
    expect(done.stages[0]).toMatchObject({ attempts: 2, output: 'second' });
  }, 40_000);

  it('cancel from another process kills the running stage and the driver ends with the run cancelled', async () => {
    const w = workflowRepo();
    w.write('.colony/workflows/long.yaml', 'stages:\n  - { name: wait, type: command, command: "sleep 60" }\n');
    const child = w.spawn(['swarm', 'workflow', 'run', 'long']);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const running = await until(
      () => {
        const [run] = w.colony(['swarm', 'workflow', 'status', '--json']).json();
        return run?.stages[0].group ? run : false;
      },
      15_000,
      'the stage to run',
    );
    const cancelled = w.colony(['swarm', 'workflow', 'cancel', running.run_id]);
    expect(cancelled.stdout).toContain('cancelled by the operator');
    expect(groupAlive(running.stages[0].group.pgid)).toBe(false);
    expect(await exited).toBe(1);
    const run = w.colony(['swarm', 'workflow', 'status', running.run_id, '--json']).json();
    expect(run).toMatchObject({ state: 'cancelled', stages: [{ state: 'cancelled' }] });
  }, 40_000);

  it('run --detach leaves the run to a background driver that logs and pauses at the gate', async () => {
    const w = workflowRepo();
    w.write('.colony/workflows/ship.yaml', SHIP);
    const started = w.colony(['swarm', 'workflow', 'run', 'ship', '--input', 'issue=3', '--detach', '--json']).json();
    expect(started.state).toBe('pending');
    const run = await until(
      () => {
        const r = w.colony(['swarm', 'workflow', 'status', started.run_id, '--json']).json();
        return r.state === 'awaiting_approval' && r;
      },
      20_000,
      'the background driver to reach the gate',
    );
    expect(run.stages.map((s: { state: string }) => s.state)).toEqual([
      'completed',
      'completed',
      'awaiting_approval',
      'pending',
    ]);
    await until(() => readFileSync(started.detached.log, 'utf8').includes('awaiting approval'), 5_000, 'the log');
  }, 40_000);
});
