/**
 * `colony swarm start|status|send|stop` end to end: the built CLI as real processes on a
 * temp git repository and COLONY_HOME, the real Anthropic SDK against a fake Messages
 * API server on 127.0.0.1 (streaming SSE with tool_use blocks). No key, no internet.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeAnthropic, type FakeAnthropicReply, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { agentOf, type StartedCli, settingsFor, swarmFixture, systemText, until } from './_swarm';

let fake: FakeAnthropic | null = null;
let started: StartedCli[] = [];
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') for (const s of started) console.error(s.output());
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await Promise.all(started.map((s) => s.exited()));
  started = [];
  await fake?.close();
  fake = null;
});

const SUBTASKS = [
  { title: 'API endpoint', description: 'Write api.ts', file_scope: ['api.ts'] },
  { title: 'UI page', description: 'Write ui.ts', file_scope: ['ui.ts'] },
  { title: 'Usage notes', description: 'Write notes.md', file_scope: ['notes.md'] },
];
const ASSIGNED: Record<string, number[]> = { backend: [0, 2], frontend: [1], supervisor: [] };

/** Each agent's first session claims, writes and completes its sub-tasks; later sessions have nothing to do. */
function planWorker(): (body: { messages: unknown[] }) => FakeAnthropicReply {
  const sessions: Record<string, number> = {};
  return (body) => {
    const agent = agentOf(body);
    if (body.messages.length === 1) sessions[agent] = (sessions[agent] ?? 0) + 1;
    const step = (body.messages.length - 1) / 2;
    const tasks = ASSIGNED[agent] ?? [];
    if (sessions[agent] !== 1 || step >= tasks.length * 3) return { text: 'Nothing left to do.' };
    const index = tasks[Math.floor(step / 3)]!;
    const file = SUBTASKS[index]!.file_scope[0]!;
    const calls = [
      { name: 'task_plan_claim_subtask', input: { plan_slug: 'demo', subtask_index: index } },
      { name: 'write', input: { path: file, content: `// ${file} by ${agent}\n` } },
      {
        name: 'task_plan_complete_subtask',
        input: { plan_slug: 'demo', subtask_index: index, summary: `wrote ${file}` },
      },
    ];
    return { tool_uses: [calls[step % 3]!], usage: { input_tokens: 100, output_tokens: 20 } };
  };
}

describe('colony swarm sessions (E2E, real SDK against a fake Messages API)', () => {
  it('two agents and a supervisor take a published plan; stop --merge leaves Merge agent commits and nothing else', async () => {
    const worker = planWorker();
    fake = await startFakeAnthropic({ respond: (r) => worker(r.body) });
    const f = swarmFixture(settingsFor(fake.baseURL));
    await f.publishDemoPlan({
      problem: 'Three files to write.',
      acceptance_criteria: ['the three files exist'],
      subtasks: SUBTASKS,
    });
    const start = f.start();
    started.push(start);
    await start.waitFor(/session \d{8}-[0-9a-f]{4} started: backend, frontend, supervisor/);
    const done = await until(
      async () => {
        const s = await f.status();
        return s.plans.completed === 3 && s.agents.every((a) => a.state === 'SessionComplete') && s;
      },
      15_000,
      'the plan to complete',
    );
    expect(done.session?.active).toBe(true);
    expect(done.agents.map((a) => a.name)).toEqual(['backend', 'frontend', 'supervisor']);
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(4);
    const stop = await f.colony(['swarm', 'stop', '--merge']);
    expect(stop.stderr).toBe('');
    expect(stop.code).toBe(0);
    expect(await start.exited()).toBe(0);
    const log = f.git('log', '--first-parent', '--format=%s');
    expect(log.split('\n').slice(0, 2)).toEqual(['Merge agent: frontend', 'Merge agent: backend']);
    for (const file of ['api.ts', 'ui.ts', 'notes.md']) expect(existsSync(join(f.repo, file))).toBe(true);
    expect(readFileSync(join(f.repo, 'api.ts'), 'utf8')).toBe('// api.ts by backend\n');
    expect(f.git('show', '--stat', '--format=', 'HEAD^2')).toContain('ui.ts');
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(1);
    expect(f.git('branch', '--list', 'colony/*')).toBe('');
    expect(existsSync(join(f.repo, '.colony', 'session.json'))).toBe(false);
    expect(existsSync(join(f.repo, '.colony', 'session.lock'))).toBe(false);
    expect((await f.status()).session).toBeNull();
    const logs = await f.colony(['swarm', 'logs', 'backend']);
    expect(logs.stdout).toMatch(/session 1 ended: end_turn \(model stopped: end_turn\), 6 tool calls/);
  }, 60_000);

  it('an urgent send aborts the held request within 1 s; the next prompt carries it with the Interrupt Context', async () => {
    let held = false;
    fake = await startFakeAnthropic({
      respond: (r) => {
        if (agentOf(r.body) === 'backend' && !held) {
          held = true;
          return { kind: 'hold', text: 'Working on the migration' };
        }
        return { text: 'Understood.' };
      },
    });
    const f = swarmFixture(settingsFor(fake.baseURL));
    const start = f.start();
    started.push(start);
    await start.waitFor(/started/);
    await until(async () => held, 10_000, 'the held request');
    const send = await f.colony(['swarm', 'send', 'backend', 'Stop the migration now.', '--urgent']);
    expect(send.stderr).toBe('');
    const sent = performance.now();
    await until(async () => fake!.dropped() === 1, 3000, 'the held stream to be dropped');
    expect(performance.now() - sent).toBeLessThan(1000);
    const next = await until(
      async () =>
        fake!.requests
          .slice(1)
          .find((r) => agentOf(r.body) === 'backend' && systemText(r.body).includes('Interrupt Context')),
      5000,
      'the next backend request',
    );
    const system = systemText(next.body);
    expect(system).toMatch(/\[URGENT\] From operator \(\d+s ago\):\nStop the migration now\./);
    expect(system).toContain('## Interrupt Context');
    const status = await f.status();
    expect(status.agents.find((a) => a.name === 'backend')).toMatchObject({ consecutive_errors: 0, total_errors: 0 });

    // Crash: SIGKILL the session runner; the next start recovers and starts a new session.
    start.child.kill('SIGKILL');
    await start.exited();
    expect((await f.status()).session?.active).toBe(false);
    const again = f.start();
    started.push(again);
    await again.waitFor(/session \d{8}-[0-9a-f]{4} started/);
    expect(again.output()).toMatch(/recovering stale session \d{8}-[0-9a-f]{4}/);
    expect(again.output()).toMatch(/recovered session/);
    expect((await f.colony(['swarm', 'stop', '--discard'])).code).toBe(0);
    expect(await again.exited()).toBe(0);
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(1);
  }, 60_000);

  it('a failing API backs off 2 s and stops the agent at max_consecutive_errors with a fatal reason in status', async () => {
    const times: number[] = [];
    fake = await startFakeAnthropic({
      respond: (r) => {
        if (agentOf(r.body) !== 'backend') return { text: 'idle' };
        times.push(performance.now());
        return { kind: 'status', status: 500 };
      },
    });
    const f = swarmFixture(settingsFor(fake.baseURL, { max_consecutive_errors: 2 }));
    const start = f.start();
    started.push(start);
    const stopped = await until(
      async () => {
        const s = await f.status().catch(() => null);
        const backend = s?.agents.find((a) => a.name === 'backend');
        return backend?.state === 'Stopped' && backend;
      },
      15_000,
      'backend to stop',
    );
    expect(stopped.consecutive_errors).toBe(2);
    expect(times).toHaveLength(2);
    // backoffMs(1) = 2 s between the first failure and the next request.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1900);
    expect(stopped.stop_reason).toMatch(
      /^agent stopped after 2 consecutive errors \(max_consecutive_errors 2\); last error: /,
    );
    expect((await f.colony(['swarm', 'stop'])).code).toBe(0);
    await start.exited();
  }, 60_000);

  it("a rate-limited provider relays the agent's claimed sub-task with task_relay", async () => {
    let claimed = false;
    fake = await startFakeAnthropic({
      respond: (r) => {
        if (agentOf(r.body) !== 'backend') return { text: 'idle' };
        if (r.body.messages.length === 1 && !claimed) {
          claimed = true;
          return { tool_uses: [{ name: 'task_plan_claim_subtask', input: { plan_slug: 'demo', subtask_index: 0 } }] };
        }
        return { kind: 'status', status: 429, message: 'rate limit exceeded' };
      },
    });
    const f = swarmFixture(settingsFor(fake.baseURL));
    const plan = await f.publishDemoPlan({
      problem: 'Three files to write.',
      acceptance_criteria: ['the three files exist'],
      subtasks: SUBTASKS,
    });
    const taskId = (plan.subtasks as { task_id: number }[])[0]!.task_id;
    const start = f.start();
    started.push(start);
    await start.waitFor(/started/);
    const relay = await until(
      async () => {
        const timeline = await f.tool('task_timeline', { task_id: taskId, limit: 50 });
        const list = (
          Array.isArray(timeline) ? timeline : ((timeline as { observations?: unknown[] }).observations ?? [])
        ) as {
          kind: string;
        }[];
        return list.find((o) => o.kind === 'relay');
      },
      15_000,
      'a relay on the sub-task',
    );
    expect(relay).toBeTruthy();
    expect((await f.colony(['swarm', 'stop', '--discard'])).code).toBe(0);
    await start.exited();
  }, 60_000);

  it('colony-worker runs the same session runner (scripted provider, no server); colony swarm stop ends it', async () => {
    const f = swarmFixture(() => ({
      // Only backend writes: with one script for both, the supervisor raced backend to
      // api.ts and either could end up with the file (and the last merge commit).
      agents: [{ name: 'backend', prompt: 'You own the API.', provider: 'writer' }],
      providers: {
        writer: {
          type: 'scripted',
          script: [
            { tool_calls: [{ name: 'write', input: { path: 'api.ts', content: 'api\n' } }] },
            { text: 'done' },
            { text: 'idle' },
          ],
        },
        default: { type: 'scripted', script: [{ text: 'idle' }] },
      },
      defaults: { liveness: { idle_nudge_after_secs: null } },
    }));
    const worker = f.worker();
    started.push(worker);
    await worker.waitFor(/session \d{8}-[0-9a-f]{4} started: backend, supervisor/);
    await until(
      async () => (await f.status()).agents.every((a) => a.state === 'SessionComplete' && a.session_seq >= 1),
      15_000,
      'idle agents',
    );
    expect((await f.colony(['swarm', 'stop'])).code).toBe(0);
    expect(await worker.exited()).toBe(0);
    expect(f.git('log', '--first-parent', '--format=%s', '-1')).toBe('Merge agent: backend');
    expect(readFileSync(join(f.repo, 'api.ts'), 'utf8')).toBe('api\n');
  }, 60_000);
});
