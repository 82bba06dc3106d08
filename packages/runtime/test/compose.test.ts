/**
 * The pieces fit: state machine + prompt + loop + the real SDK against the fake
 * Messages API, driven by hand the way the runner (next round) will drive them.
 */
import { anthropicProvider } from '@swarm/providers';
import { type FakeAnthropic, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  type AgentMachine,
  buildPrompt,
  initialMachine,
  type LoopResult,
  loopExitOutcome,
  type PromptContext,
  runAgentLoop,
  type SideEffect,
  transition,
} from '../src/index.js';

let now = Date.UTC(2026, 10, 25, 12);
const ctx = { now: () => now };

const context = (over: Partial<PromptContext> = {}): PromptContext => ({
  agent_name: 'backend',
  agent_prompt: 'You own the API.',
  mode: 'code',
  session_id: '20261125-a3f2',
  session_seq: 1,
  db_path: '/tmp/colony.db',
  worktree_path: '/repo/.colony/worktrees/backend',
  agent_names: ['backend', 'frontend'],
  colony_session_id: 'swarm-20261125-a3f2-backend',
  environment: {
    platform: 'linux',
    os_version: '6',
    shell: 'sh',
    cwd: '/repo',
    git_status: '',
    recent_commits: 'abc init',
  },
  messages: [],
  ready_subtasks: null,
  now,
  ...over,
});

describe('state machine + prompt + loop, composed', () => {
  let fake: FakeAnthropic;
  let machine: AgentMachine;
  let effects: SideEffect[];
  const send = (event: AgentEvent) => {
    const result = transition(machine, event, ctx);
    expect(result.ignored).toBe(false);
    machine = result.machine;
    effects.push(...result.effects);
    return result.effects;
  };
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    machine = initialMachine();
    effects = [];
  });
  afterEach(async () => {
    await fake.close();
  });
  const provider = () =>
    anthropicProvider({ base_url: fake.baseURL, api_key_env: 'K', env: { K: 'k' }, max_retries: 0 });
  const session = (system: string, signal?: AbortSignal, onText?: () => void): Promise<LoopResult> =>
    runAgentLoop({
      provider: provider(),
      model: 'sonnet',
      system,
      messages: [{ role: 'user', content: 'Continue your work.' }],
      tools: [],
      executor: { execute: async () => ({ content: '' }) },
      ...(signal ? { signal } : {}),
      onEvent: (e) => {
        if (e.type === 'text') onText?.();
      },
    });

  it('an urgent message cancels the running session and the next prompt carries it, without counting an error', async () => {
    send({ type: 'WorktreeReady' });
    send({ type: 'PromptReady', prompt: buildPrompt(context()) });
    send({ type: 'SessionStarted', seq: 1 });
    fake.enqueue({ kind: 'hold', text: 'working on it' }, { text: 'On it: checking the migration.' });
    const controller = new AbortController();
    const first = await session(buildPrompt(context()), controller.signal, () => {
      // The router saw an urgent message: the machine says cancel, the runner aborts.
      for (const effect of send({ type: 'UrgentMessage' })) if (effect.type === 'CancelSession') controller.abort();
    });
    expect(first.outcome).toBe('aborted');
    expect(loopExitOutcome(first)).toBeNull();
    send({ type: 'SessionExited', outcome: { kind: 'error', message: 'cancelled' } });
    expect(machine).toEqual({ state: { kind: 'BuildingPrompt' }, consecutive_errors: 0, total_errors: 0 });
    const urgent = { from: 'operator', body: 'Stop: the migration breaks prod.', urgent: true, sent_at: now - 60_000 };
    const prompt = buildPrompt(context({ messages: [urgent], interrupt_context: 'urgent message', session_seq: 2 }));
    send({ type: 'PromptReady', prompt });
    send({ type: 'SessionStarted', seq: 2 });
    const second = await session(prompt);
    send({ type: 'SessionExited', outcome: loopExitOutcome(second)! });
    expect(machine.state).toEqual({ kind: 'SessionComplete' });
    await fake.waitForRequests(2);
    expect(fake.dropped()).toBe(1);
    const system = fake.requests[1]!.body.system as string;
    expect(system).toContain(
      '## Messages from teammates\n\n[URGENT] From operator (1m ago):\nStop: the migration breaks prod.',
    );
    expect(system).toContain('## Interrupt Context');
    expect(effects.map((e) => e.type)).toEqual(['StorePrompt', 'CancelSession', 'StorePrompt']);
  });

  it('a failing API puts the agent in backoff measured on the injected clock', async () => {
    send({ type: 'WorktreeReady' });
    send({ type: 'PromptReady', prompt: 'p' });
    send({ type: 'SessionStarted', seq: 1 });
    fake.enqueue({ kind: 'status', status: 500 });
    const result = await session('p');
    send({ type: 'SessionExited', outcome: loopExitOutcome(result)! });
    expect(machine).toEqual({
      state: { kind: 'CoolingDown', until: now + 2000 },
      consecutive_errors: 1,
      total_errors: 1,
    });
    now += 2000;
    send({ type: 'BackoffElapsed' });
    expect(machine.state).toEqual({ kind: 'BuildingPrompt' });
  });
});
