/**
 * A running runtime agent keeps its colony lane live: the runner beats through the tool
 * interface (task_thread, as the session runner wires it) at each session start and at most
 * once per interval on model/tool events, so hivemind over the same colony reads the
 * lane as thinking while the agent runs; once stopped it beats no more and the lane ages
 * through stalled to dead as the manual clock advances.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AgentRunner,
  agentTools,
  colonyMailbox,
  createModelProvider,
  Heartbeat,
  joinThread,
  type ResolvedProvider,
} from '@swarm/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Colony, manualClock, openColony } from '../src/index.js';
import { callerOf, markReadOf } from '../src/runtime/_agents.js';

const MINUTE = 60_000;
const SESSION = '20261125-b7c1';
let dir: string;
let colony: Colony;
const clock = manualClock(Date.UTC(2026, 10, 25, 12));
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'runtime-heartbeat-'));
  colony = openColony({ home: join(dir, 'home'), clock, receipts: false });
});
afterEach(async () => {
  await colony.close();
  rmSync(dir, { recursive: true, force: true });
});

const waitFor = async (check: () => Promise<boolean> | boolean, ms = 5000) => {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

async function laneOf(repo: string, agent: string, include_stale = false): Promise<string | null> {
  const out = await colony.handleToolCall('hivemind', { repo_root: repo, include_stale });
  if (!out.ok) throw new Error(out.text);
  const lanes = (out.value as { sessions: { session_id: string; activity: string }[] }).sessions;
  return lanes.find((l) => l.session_id === `swarm-${SESSION}-${agent}`)?.activity ?? null;
}

describe('runtime agent heartbeat', () => {
  it('a running agent reads thinking in hivemind; stopped, its lane ages to stalled and dead', async () => {
    const repo = join(dir, 'repo');
    const caller = callerOf(colony);
    const mailbox = await colonyMailbox({
      caller,
      markRead: markReadOf(colony),
      repo_root: repo,
      branch: 'main',
      session_id: SESSION,
      agents: ['backend'],
    });
    clock.advance(2 * 60 * MINUTE);
    expect(await laneOf(repo, 'backend')).toBeNull();
    expect(await laneOf(repo, 'backend', true)).toBe('dead');

    // One long model turn: no model or tool event while it runs, only the session-start beat.
    const block = { name: 'scripted', type: 'scripted', models: {}, script: [{ text: 'thinking', delay_ms: 30_000 }] };
    const provider = createModelProvider(block as unknown as ResolvedProvider, { cwd: dir });
    const runner = new AgentRunner({
      name: 'backend',
      agent_prompt: 'You are backend.',
      mode: 'code',
      model: 'sonnet',
      provider,
      tools: agentTools({
        worktree: dir,
        agent: 'backend',
        colony_session_id: `swarm-${SESSION}-backend`,
        env: {},
        mailbox,
      }),
      mailbox,
      worktree: dir,
      session_id: SESSION,
      colony_session_id: `swarm-${SESSION}-backend`,
      db_path: join(dir, 'home', 'colony.db'),
      agent_names: ['backend'],
      now: () => clock.now(),
      environment: async () => ({
        platform: 'linux',
        os_version: '6',
        shell: 'sh',
        cwd: dir,
        git_status: '',
        recent_commits: '',
      }),
      heartbeat: async () => {
        await joinThread(caller, { repo_root: repo, branch: 'main', session_id: SESSION, agent: 'backend' });
      },
    });
    const done = runner.start();
    await waitFor(async () => (await laneOf(repo, 'backend')) === 'thinking');

    await runner.stop();
    await done;
    clock.advance(11 * MINUTE);
    expect(await laneOf(repo, 'backend')).toBe('stalled');
    clock.advance(60 * MINUTE);
    expect(await laneOf(repo, 'backend')).toBeNull();
    expect(await laneOf(repo, 'backend', true)).toBe('dead');
  });

  it('beats when forced and at most once per interval otherwise, never overlapping', async () => {
    let now = 0;
    let beats = 0;
    let release: () => void = () => undefined;
    const beat = new Heartbeat(
      () => {
        beats += 1;
        return new Promise<void>((r) => {
          release = r;
        });
      },
      () => now,
      30_000,
    );
    beat.tick(true);
    beat.tick(true); // the first is still in flight
    expect(beats).toBe(1);
    release();
    await new Promise((r) => setTimeout(r, 0));
    now = 29_999;
    beat.tick();
    expect(beats).toBe(1);
    now = 30_000;
    beat.tick();
    expect(beats).toBe(2);
    release();
    await new Promise((r) => setTimeout(r, 0));
    beat.tick(true);
    expect(beats).toBe(3);
    release();
  });
});
