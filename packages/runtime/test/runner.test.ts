/**
 * The runner, registry and router with the scripted provider and the in-memory mailbox:
 * agents write through their tools, an urgent message interrupts a held request at once
 * and the next prompt carries it, failures back off 2/4/8/16 s on a driven clock and
 * stop the agent at 5, budgets stop an agent with a reason and a message to the operator.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ModelProvider, type Script, type ScriptedTurn, scriptedProvider } from '@swarm/providers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AgentRegistry,
  AgentRunner,
  agentTools,
  BudgetMeter,
  LifecycleHooks,
  LivenessMonitor,
  type Mailbox,
  memoryMailbox,
  type RunnerOptions,
  startRouter,
} from '../src/index.js';

let dir: string;
let now = Date.UTC(2026, 10, 25, 12);
const clock = () => now;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'runner-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = async () => ({
  platform: 'linux',
  os_version: '6',
  shell: 'sh',
  cwd: dir,
  git_status: '',
  recent_commits: '',
});

function runner(name: string, script: Script, mailbox: Mailbox, over: Partial<RunnerOptions> = {}) {
  const provider = scriptedProvider(script);
  const tools = agentTools({ worktree: dir, agent: name, colony_session_id: `swarm-s-${name}`, env: {}, mailbox });
  const r = new AgentRunner({
    name,
    agent_prompt: `You are ${name}.`,
    mode: 'code',
    model: 'sonnet',
    provider,
    tools,
    mailbox,
    worktree: dir,
    session_id: '20261125-a3f2',
    colony_session_id: `swarm-20261125-a3f2-${name}`,
    db_path: '/tmp/colony.db',
    agent_names: ['backend', 'frontend'],
    now: clock,
    environment: env,
    log: process.env.RUNNER_LOG ? (l) => console.log(l) : undefined,
    ...over,
  });
  return { runner: r, provider };
}

const waitFor = async (check: () => boolean, ms = 5000) => {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('runner + registry + router', () => {
  it('two agents write files through their tools, then idle until stopped', async () => {
    const mailbox = memoryMailbox(clock);
    const registry = new AgentRegistry();
    const write = (file: string): ScriptedTurn[] => [
      { tool_calls: [{ name: 'write', input: { path: file, content: `${file}\n` } }] },
      { text: 'done' },
      { text: 'nothing left to do' },
    ];
    const a = runner('backend', write('api.ts'), mailbox);
    const b = runner('frontend', write('ui.ts'), mailbox);
    registry.register(a.runner);
    registry.register(b.runner);
    expect(() => registry.register(a.runner)).toThrow(/already registered/);
    const router = startRouter(registry, mailbox, { poll_ms: null });
    const all = registry.startAll();
    await waitFor(() => registry.states().every((s) => s.state === 'SessionComplete'));
    expect(readFileSync(join(dir, 'api.ts'), 'utf8')).toBe('api.ts\n');
    expect(existsSync(join(dir, 'ui.ts'))).toBe(true);
    // Idle after the session with tool calls ran another session that did nothing.
    expect(a.provider.requests).toHaveLength(3);
    await registry.shutdown();
    await all;
    router.stop();
    expect(registry.states().map((s) => [s.name, s.state, s.stop_reason])).toEqual([
      ['backend', 'Stopped', 'operator stop'],
      ['frontend', 'Stopped', 'operator stop'],
    ]);
  });

  it('a normal message wakes an idle agent; its next prompt carries it', async () => {
    const mailbox = memoryMailbox(clock);
    const registry = new AgentRegistry();
    const a = runner('backend', [{ text: 'nothing to do' }, { text: 'read it' }], mailbox);
    registry.register(a.runner);
    const router = startRouter(registry, mailbox, { poll_ms: null });
    const all = registry.startAll();
    await waitFor(() => a.runner.snapshot().state === 'SessionComplete');
    await mailbox.send({ from: 'frontend', to: 'backend', body: 'API ready?' });
    await waitFor(() => a.provider.requests.length === 2);
    expect(a.provider.requests[1]!.system).toContain('From frontend (0s ago):\nAPI ready?');
    await registry.shutdown();
    await all;
    router.stop();
  });

  it('an urgent message aborts a held request at once; the next prompt has it and the Interrupt Context', async () => {
    const mailbox = memoryMailbox(clock);
    const registry = new AgentRegistry();
    const a = runner('backend', [{ delay_ms: 30_000, text: 'slow' }, { text: 'ok, stopping the migration' }], mailbox);
    registry.register(a.runner);
    const router = startRouter(registry, mailbox, { poll_ms: null });
    const all = registry.startAll();
    await waitFor(() => a.provider.requests.length === 1);
    const sent = performance.now();
    await mailbox.send({ from: 'operator', to: 'backend', body: 'Stop the migration.', urgent: true });
    await waitFor(() => a.provider.requests.length === 2);
    expect(performance.now() - sent).toBeLessThan(1000);
    const system = a.provider.requests[1]!.system as string;
    expect(system).toContain('[URGENT] From operator (0s ago):\nStop the migration.');
    expect(system).toContain('## Interrupt Context');
    expect(a.provider.requests[0]!.system).not.toContain('Interrupt Context');
    await waitFor(() => a.runner.snapshot().state === 'SessionComplete');
    expect(a.runner.snapshot()).toMatchObject({ consecutive_errors: 0, total_errors: 0, session_seq: 2 });
    await registry.shutdown();
    await all;
    router.stop();
  });

  it('an agent whose provider ignores the abort is force-stopped after the grace period and carries on', async () => {
    const mailbox = memoryMailbox(clock);
    const registry = new AgentRegistry();
    const next = scriptedProvider([{ text: 'ok, stopping' }]);
    let release: () => void = () => undefined;
    const hung = new Promise<void>((r) => {
      release = r;
    });
    let aborted = false;
    const requests: string[] = [];
    // The first turn answers one piece of text, then hangs whatever its abort signal says.
    const stubborn: ModelProvider = {
      kind: 'scripted',
      stream(request, options) {
        requests.push(String(request.system));
        if (requests.length > 1) return next.stream(request, options);
        options?.signal?.addEventListener('abort', () => {
          aborted = true;
        });
        return (async function* () {
          yield { type: 'text' as const, text: 'working' };
          await hung;
        })();
      },
    };
    const states: string[] = [];
    const a = runner('backend', [], mailbox, {
      provider: stubborn,
      grace_ms: 50,
      onChange: (snap) => states.push(snap.state),
    });
    registry.register(a.runner);
    const router = startRouter(registry, mailbox, { poll_ms: null });
    const all = registry.startAll();
    await waitFor(() => a.runner.snapshot().state === 'Running');
    await mailbox.send({ from: 'operator', to: 'backend', body: 'Drop it.', urgent: true });
    await waitFor(() => requests.length === 2);
    expect(aborted).toBe(true);
    // Interrupting -> (grace exceeded: ForceStopSession) -> BuildingPrompt, with no session exit in between.
    expect(states.slice(states.indexOf('Interrupting'), states.indexOf('Interrupting') + 2)).toEqual([
      'Interrupting',
      'BuildingPrompt',
    ]);
    expect(requests[1]).toContain('## Interrupt Context');
    expect(requests[1]).toContain('[URGENT] From operator (0s ago):\nDrop it.');
    await waitFor(() => a.runner.snapshot().state === 'SessionComplete');
    expect(a.runner.snapshot()).toMatchObject({ session_seq: 2, consecutive_errors: 0, total_errors: 0 });
    release();
    await registry.shutdown();
    await all;
    router.stop();
  });

  it('the poll picks up urgent mail written by another process (no push)', async () => {
    const inner = memoryMailbox(clock);
    const noPush: Mailbox = { ...inner, onMessage: () => () => undefined };
    const registry = new AgentRegistry();
    const a = runner('backend', [{ delay_ms: 30_000 }, { text: 'ok' }], noPush);
    registry.register(a.runner);
    const router = startRouter(registry, noPush, { poll_ms: 20 });
    const all = registry.startAll();
    await waitFor(() => a.provider.requests.length === 1);
    await inner.send({ from: 'operator', to: 'backend', body: 'now', urgent: true });
    await waitFor(() => a.provider.requests.length === 2, 2000);
    await registry.shutdown();
    await all;
    router.stop();
  });

  it('the poll wakes an idle agent for a normal message written by another process (no push)', async () => {
    const inner = memoryMailbox(clock);
    const noPush: Mailbox = { ...inner, onMessage: () => () => undefined };
    const registry = new AgentRegistry();
    const a = runner('backend', [{ text: 'nothing to do' }, { text: 'read it' }], noPush);
    registry.register(a.runner);
    const router = startRouter(registry, noPush, { poll_ms: 20 });
    const all = registry.startAll();
    await waitFor(() => a.runner.snapshot().state === 'SessionComplete');
    await inner.send({ from: 'operator', to: 'backend', body: 'FYI: main moved.' });
    await waitFor(() => a.provider.requests.length === 2, 2000);
    expect(a.provider.requests[1]!.system).toContain('From operator (0s ago):\nFYI: main moved.');
    expect(await inner.pending()).toEqual({ urgent: [], other: [] });
    await registry.shutdown();
    await all;
    router.stop();
  });

  it('failures back off 2, 4, 8, 16 s on a driven clock and stop the agent after 5 consecutive errors', async () => {
    const mailbox = memoryMailbox(clock);
    const waits: number[] = [];
    const fail: ScriptedTurn = { error: { kind: 'api_error', message: 'HTTP 500', status: 500 } };
    const a = runner('backend', Array(6).fill(fail), mailbox, {
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    await a.runner.start();
    expect(waits).toEqual([2000, 4000, 8000, 16000]);
    expect(a.provider.requests).toHaveLength(5);
    const s = a.runner.snapshot();
    expect(s).toMatchObject({ state: 'Stopped', consecutive_errors: 5, total_errors: 5 });
    expect(s.stop_reason).toMatch(
      /^agent stopped after 5 consecutive errors \(max_consecutive_errors 5\); last error: api_error: HTTP 500/,
    );
  });

  it('an agent budget stops the agent with a reason and tells the operator; the session budget is shared', async () => {
    const mailbox = memoryMailbox(clock);
    const session = new BudgetMeter({ max_tokens: 1000 }, 'session');
    const turn: ScriptedTurn = {
      tool_calls: [{ name: 'glob', input: { pattern: '*' } }],
      usage: { input_tokens: 60, output_tokens: 40 },
    };
    const a = runner('backend', Array(10).fill(turn), mailbox, {
      budgets: [new BudgetMeter({ max_tokens: 250 }, 'agent'), session],
    });
    await a.runner.start();
    const s = a.runner.snapshot();
    expect(s.state).toBe('Stopped');
    expect(s.stop_reason).toBe('agent token budget reached: used 300 of max_tokens 250');
    expect(s.tokens).toBe(300);
    expect(session.tokens).toBe(300);
    expect(mailbox.messages.at(-1)).toMatchObject({ from: 'backend', to: 'operator' });
    expect(mailbox.messages.at(-1)!.body).toContain('token budget reached');
  });

  it('the liveness monitor warns the operator once per episode and reports a stall with an interrupt', async () => {
    const mailbox = memoryMailbox(clock);
    const registry = new AgentRegistry();
    const a = runner('backend', [{ delay_ms: 60_000 }, { text: 'ok' }], mailbox);
    registry.register(a.runner);
    const all = registry.startAll();
    await waitFor(() => a.provider.requests.length === 1);
    const monitor = new LivenessMonitor(registry, mailbox, {
      enabled: true,
      idle_nudge_after_secs: 60,
      idle_nudge_interval_secs: null,
      max_nudges: 1,
      idle_warn_after_secs: 600,
      stall_timeout_secs: 900,
      auto_interrupt_stalled: true,
    });
    const t0 = a.runner.snapshot().last_activity;
    expect(await monitor.check(t0 + 599_000)).toEqual([]);
    expect(await monitor.check(t0 + 600_000)).toEqual(['backend: idle_warning']);
    expect(await monitor.check(t0 + 700_000)).toEqual([]);
    expect(await monitor.check(t0 + 900_000)).toEqual(['backend: stall_detected', 'backend: interrupt']);
    expect(mailbox.messages.map((m) => `${m.to}: ${m.body}`)).toEqual([
      'operator: backend is idle for 600s',
      'operator: backend is stalled (no activity) for 900s',
    ]);
    await waitFor(() => a.provider.requests.length === 2);
    expect(a.provider.requests[1]!.system).toContain('## Interrupt Context');
    await registry.shutdown();
    await all;
  });

  it('fires SessionStart/SessionEnd around sessions, TeammateIdleWarning and StallDetected from the monitor, Stop on shutdown', async () => {
    const mailbox = memoryMailbox(clock);
    const registry = new AgentRegistry();
    const log = { type: 'command' as const, command: 'cat >> events.jsonl' };
    const keys = ['session_start', 'session_end', 'stop', 'teammate_idle_warning', 'stall_detected'] as const;
    const hooks = new LifecycleHooks(Object.fromEntries(keys.map((k) => [k, [{ hooks: [log] }]])), {
      session_id: '20261125-a3f2',
      cwd: dir,
      agent_name: 'backend',
    });
    const a = runner('backend', [{ delay_ms: 60_000 }, { text: 'ok' }], mailbox, { hooks });
    registry.register(a.runner);
    const all = registry.startAll();
    await waitFor(() => a.provider.requests.length === 1);
    const monitor = new LivenessMonitor(
      registry,
      mailbox,
      {
        enabled: true,
        idle_nudge_after_secs: null,
        idle_nudge_interval_secs: null,
        max_nudges: 0,
        idle_warn_after_secs: 600,
        stall_timeout_secs: 900,
        auto_interrupt_stalled: true,
      },
      () => hooks,
    );
    const t0 = a.runner.snapshot().last_activity;
    await monitor.check(t0 + 600_000);
    await monitor.check(t0 + 900_000);
    await waitFor(() => a.provider.requests.length === 2);
    await registry.shutdown();
    await all;
    const events = readFileSync(join(dir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const names = events.map((e) => e.hook_event_name);
    expect(names.slice(0, 4)).toEqual(['SessionStart', 'TeammateIdleWarning', 'StallDetected', 'SessionEnd']);
    expect(names).toContain('Stop');
    expect(events[2]).toMatchObject({
      event: 'StallDetected',
      agent_name: 'backend',
      stall_duration_secs: 900,
      last_heartbeat_event: 'SessionStart',
    });
    expect(events[1]).toMatchObject({ idle_duration_secs: 600, last_state: 'Spawning' });
    expect('tool_name' in events[0]).toBe(false);
  });
});
