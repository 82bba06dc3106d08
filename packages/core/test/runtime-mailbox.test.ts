/**
 * The runtime's mailbox on colony's real store, through the tool interface: agents and
 * the operator are colony sessions on one thread; urgent = blocking; consume reads and
 * marks read; an IDE agent sees the runtime agents in hivemind and can message one,
 * which the router's poll (pendingUrgent) picks up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colonyMailbox } from '@swarm/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Colony, manualClock, openColony } from '../src/index.js';
import { callerOf } from '../src/runtime/_agents.js';

let dir: string;
let colony: Colony;
const clock = manualClock(Date.UTC(2026, 10, 25, 12));
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'runtime-mailbox-'));
  colony = openColony({ home: join(dir, 'home'), clock, receipts: false });
});
afterEach(() => {
  colony.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the runtime mailbox on colony', () => {
  it('operator -> agent urgent message: pushed, polled, consumed once with its body', async () => {
    const repo = join(dir, 'repo');
    const mailbox = await colonyMailbox({
      caller: callerOf(colony),
      repo_root: repo,
      branch: 'main',
      session_id: '20261125-a3f2',
      agents: ['backend', 'frontend'],
    });
    const pushed: [string, boolean][] = [];
    mailbox.onMessage((to, urgent) => pushed.push([to, urgent]));
    await mailbox.send({ from: 'operator', to: 'backend', body: 'Stop the migration.', urgent: true });
    await mailbox.send({ from: 'frontend', to: 'backend', body: 'API ready?' });
    expect(pushed).toEqual([
      ['backend', true],
      ['backend', false],
    ]);
    expect(await mailbox.pendingUrgent()).toEqual(['backend']);
    const got = await mailbox.consume('backend');
    expect(got.map((m) => [m.from, m.body, m.urgent])).toEqual([
      ['operator', 'Stop the migration.', true],
      ['frontend', 'API ready?', false],
    ]);
    expect(await mailbox.pendingUrgent()).toEqual([]);
    expect(await mailbox.consume('backend')).toEqual([]);
    await expect(mailbox.send({ from: 'backend', to: 'backend', body: 'x' })).rejects.toThrow(/itself/);
  });

  it('an IDE agent sees the runtime agents in hivemind and its blocking message is picked up by the poll', async () => {
    const repo = join(dir, 'repo');
    const mailbox = await colonyMailbox({
      caller: callerOf(colony),
      repo_root: repo,
      branch: 'main',
      session_id: '20261125-a3f2',
      agents: ['backend', 'frontend'],
    });
    const hive = await colony.handleToolCall('hivemind', { repo_root: repo });
    expect(hive.ok).toBe(true);
    const sessions = (hive.ok ? (hive.value as { sessions: { session_id: string; agent: string }[] }).sessions : [])
      .map((s) => `${s.session_id}:${s.agent}`)
      .sort();
    expect(sessions).toEqual(
      expect.arrayContaining(['swarm-20261125-a3f2-backend:backend', 'swarm-20261125-a3f2-frontend:frontend']),
    );
    const ide = { repo_root: repo, branch: 'main', session_id: 'claude-ide-1', agent: 'claude' };
    const joined = await colony.handleToolCall('task_thread', ide);
    expect(joined.ok && (joined.value as { task_id: number }).task_id).toBe(mailbox.task_id);
    const sent = await colony.handleToolCall('task_message', {
      task_id: mailbox.task_id,
      session_id: 'claude-ide-1',
      agent: 'claude',
      content: 'Please rebase on main first.',
      to_session_id: 'swarm-20261125-a3f2-frontend',
      urgency: 'blocking',
    });
    expect(sent.ok).toBe(true);
    expect(await mailbox.pendingUrgent()).toEqual(['frontend']);
    const got = await mailbox.consume('frontend');
    expect(got).toMatchObject([{ from: 'claude', body: 'Please rebase on main first.', urgent: true }]);
  });
});
