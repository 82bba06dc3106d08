/**
 * The runtime's mailbox on colony's real store, through the tool interface: agents and
 * the operator are colony sessions on one thread; urgent = blocking; consume reads and
 * marks read; an IDE agent sees the runtime agents in hivemind and can message one,
 * which the router's poll (pendingUrgent) picks up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ColonyMailbox, colonyMailbox, type MarkAllRead } from '@swarm/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Colony, manualClock, openColony } from '../src/index.js';
import { callerOf, markReadOf } from '../src/runtime/_agents.js';

let dir: string;
let colony: Colony;
const clock = manualClock(Date.UTC(2026, 10, 25, 12));
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'runtime-mailbox-'));
  colony = openColony({ home: join(dir, 'home'), clock, receipts: false });
});
afterEach(async () => {
  await colony.close();
  rmSync(dir, { recursive: true, force: true });
});

const SESSION = '20261125-a3f2';

function open(repo: string, markRead: MarkAllRead = markReadOf(colony)): Promise<ColonyMailbox> {
  return colonyMailbox({
    caller: callerOf(colony),
    markRead,
    repo_root: repo,
    branch: 'main',
    session_id: SESSION,
    agents: ['backend', 'frontend'],
  });
}

async function unreadFor(agent: string): Promise<number[]> {
  const out = await colony.handleToolCall('task_messages', {
    session_id: `swarm-${SESSION}-${agent}`,
    agent,
    unread_only: true,
  });
  if (!out.ok) throw new Error(out.text);
  return (out.value as { id: number }[]).map((m) => m.id).sort((a, b) => a - b);
}

describe('the runtime mailbox on colony', () => {
  it('operator -> agent urgent message: pushed, polled, consumed once with its body', async () => {
    const repo = join(dir, 'repo');
    const mailbox = await open(repo);
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
    const mailbox = await open(repo);
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

  it('consuming N messages marks them all read in one batched write, no per-message tool call', async () => {
    const repo = join(dir, 'repo');
    const batches: number[][] = [];
    const calls: string[] = [];
    const caller = callerOf(colony);
    const mailbox = await colonyMailbox({
      caller: {
        callTool: (name, args) => {
          calls.push(name);
          return caller.callTool(name, args);
        },
      },
      markRead: async (a) => {
        batches.push([...a.ids]);
        return markReadOf(colony)(a);
      },
      repo_root: repo,
      branch: 'main',
      session_id: SESSION,
      agents: ['backend', 'frontend'],
    });
    for (let i = 1; i <= 5; i++) await mailbox.send({ from: 'frontend', to: 'backend', body: `note ${i}` });
    const ids = await unreadFor('backend');
    expect(ids).toHaveLength(5);
    const got = await mailbox.consume('backend');
    expect(got.map((m) => m.body)).toEqual(['note 1', 'note 2', 'note 3', 'note 4', 'note 5']);
    expect(batches).toEqual([ids]);
    expect(calls).not.toContain('task_message_mark_read');
    expect(await unreadFor('backend')).toEqual([]);
  });

  it('a failure mid-way through marking leaves every message unread; the next consume gets them all', async () => {
    const repo = join(dir, 'repo');
    const good = await open(repo);
    for (let i = 1; i <= 4; i++) await good.send({ from: 'operator', to: 'backend', body: `m${i}`, urgent: i === 2 });
    const ids = await unreadFor('backend');
    // A message addressed to frontend slipped into backend's batch after two good ids: refused inside the write.
    await good.send({ from: 'backend', to: 'frontend', body: 'not yours' });
    const foreign = (await unreadFor('frontend'))[0]!;
    const failing = await open(repo, (a) =>
      markReadOf(colony)({ ...a, ids: [...a.ids.slice(0, 2), foreign, ...a.ids.slice(2)] }),
    );
    await expect(failing.consume('backend')).rejects.toThrow(/marking 4 message\(s\) read failed/);
    expect(await unreadFor('backend')).toEqual(ids);
    expect(await unreadFor('frontend')).toEqual([foreign]);
    expect(await good.pendingUrgent()).toEqual(['backend']);
    expect((await good.consume('backend')).map((m) => m.body)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(await unreadFor('backend')).toEqual([]);
  });

  it('a message retracted between listing and marking stays out of the prompt; the rest are read', async () => {
    const repo = join(dir, 'repo');
    const mailbox = await open(repo);
    await mailbox.send({ from: 'frontend', to: 'backend', body: 'keep' });
    await mailbox.send({ from: 'frontend', to: 'backend', body: 'oops' });
    const [keep, oops] = await unreadFor('backend');
    const racing = await open(repo, async (a) => {
      const out = await colony.handleToolCall('task_message_retract', {
        message_observation_id: oops,
        session_id: `swarm-${SESSION}-frontend`,
      });
      expect(out.ok).toBe(true);
      return markReadOf(colony)(a);
    });
    expect((await racing.consume('backend')).map((m) => m.body)).toEqual(['keep']);
    expect(keep).toBeLessThan(oops!);
  });

  it("takeMessage reads only the operator's answer written since the ask, and marks only it read", async () => {
    const repo = join(dir, 'repo');
    const mailbox = await open(repo);
    const accept = (body: string) => /^(allow|deny)\b/i.test(body);
    await mailbox.send({ from: 'operator', to: 'backend', body: 'allow (an old answer)' });
    clock.advance(1000);
    const since = clock.now();
    await mailbox.send({ from: 'frontend', to: 'backend', body: 'allow me to say hi' });
    await mailbox.send({ from: 'operator', to: 'backend', body: 'please check the API' });
    expect(await mailbox.takeMessage('backend', { from: 'operator', since, accept })).toBeNull();
    await mailbox.send({ from: 'operator', to: 'backend', body: 'Deny: not now' });
    expect(await mailbox.takeMessage('backend', { from: 'operator', since, accept })).toBe('Deny: not now');
    expect(await mailbox.takeMessage('backend', { from: 'operator', since, accept })).toBeNull();
    expect((await mailbox.consume('backend')).map((m) => m.body)).toEqual([
      'allow (an old answer)',
      'allow me to say hi',
      'please check the API',
    ]);
  });
});
