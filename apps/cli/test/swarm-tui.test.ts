/**
 * The `colony swarm start` dashboard as components (ink-testing-library): agent panels
 * show name, state and session seq; a new snapshot re-renders them; both of seed 003's
 * key sets select agents and open the overlays; the input bar sends through the actions;
 * `q` detaches and Ctrl+C stops. Plus the pure parts: the input bar's parser and the
 * coalescing that bounds redraws.
 */
import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommand, type StopMode } from '../src/commands/swarm/tui/_command';
import type { AgentView, Snapshot } from '../src/commands/swarm/tui/_model';
import { snapshotStore } from '../src/commands/swarm/tui/_store';
import { coalesce } from '../src/commands/swarm/tui/_throttle';
import { Dashboard, type ExitReason } from '../src/commands/swarm/tui/dashboard';

const agent = (name: string, state: string, seq: number, log: string[] = []): AgentView => ({
  name,
  state,
  session_seq: seq,
  stop_reason: null,
  log,
});
const SNAPSHOT: Snapshot = {
  session: { id: '20261127-a3f2', pid: 4242, active: true },
  agents: [
    agent('backend', 'Running', 1, ['2026-11-27T18:00:01.000Z backend: Spawning -> Running']),
    agent('frontend', 'CoolingDown', 3),
  ],
  events: [{ at: '18:00:01', text: 'backend: Spawning -> Running (seq 1)' }],
  tasks: [{ plan_slug: 'demo', subtask_index: 0, status: 'claimed', title: 'API endpoint' }],
  workflows: [
    { run_id: 'wf-2', name: 'ship', state: 'awaiting_approval', stage: 'review', awaiting: ['review'] },
    { run_id: 'wf-1', name: 'ship', state: 'completed', stage: null, awaiting: [] },
  ],
};

const ESC = '\u001b';
const KEYS = { tab: '\t', shiftTab: `${ESC}[Z`, down: `${ESC}[B`, up: `${ESC}[A`, ctrlT: '\u0014', ctrlW: '\u0017' };

function mount() {
  const store = snapshotStore(SNAPSHOT, 0);
  const sent: [string | null, string, boolean][] = [];
  const stops: StopMode[] = [];
  const exits: [ExitReason, string][] = [];
  const actions = {
    send: async (to: string | null, body: string, urgent: boolean) => {
      sent.push([to, body, urgent]);
      return `sent to ${to ?? 'backend, frontend'}`;
    },
    stop: async (mode: StopMode) => {
      stops.push(mode);
      return `session 20261127-a3f2 stopped (${mode})`;
    },
  };
  const app = render(h(Dashboard, { store, actions, rows: 30, onExit: (r, n) => exits.push([r, n]) }));
  const frame = () => app.lastFrame() ?? '';
  const until = async (pattern: RegExp, invert = false) => {
    for (let t = 0; t < 100; t++) {
      if (pattern.test(frame()) !== invert) return frame();
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`frame never ${invert ? 'lost' : 'showed'} ${pattern}:\n${frame()}`);
  };
  const press = async (keys: string, expected: RegExp) => {
    app.stdin.write(keys);
    return until(expected);
  };
  unmounts.push(app.unmount);
  return { app, store, sent, stops, exits, frame, until, press };
}

const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const u of unmounts.splice(0)) u();
});

describe('swarm dashboard components', () => {
  it('draws a panel per agent with icon, name, state and session seq, the session id and the log tail', async () => {
    const { frame, until } = mount();
    await until(/backend/);
    expect(frame()).toContain('colony swarm · session 20261127-a3f2 active (pid 4242)');
    expect(frame()).toMatch(/> 1 ● backend {2}Running {2}seq 1/);
    expect(frame()).toMatch(/ {3}2 ○ frontend {2}CoolingDown {2}seq 3/);
    expect(frame()).toContain('18:00:01 backend: Spawning -> Running');
    expect(frame()).toContain('(no log yet)');
  });

  it('re-renders when the store gets a snapshot with a state change', async () => {
    const { store, frame, until } = mount();
    await until(/Running {2}seq 1/);
    store.set({ ...SNAPSHOT, agents: [agent('backend', 'Stopped', 2), SNAPSHOT.agents[1]!] });
    await until(/■ backend {2}Stopped {2}seq 2/);
    expect(frame()).not.toContain('Running');
  });

  it('selects with Tab, Shift+Tab, Down, Up and 1-9 (both key sets)', async () => {
    const { press } = mount();
    await press(KEYS.tab, /> 2 ○ frontend/);
    await press(KEYS.shiftTab, /> 1 ● backend/);
    await press(KEYS.down, /> 2 ○ frontend/);
    await press(KEYS.up, /> 1 ● backend/);
    await press('2', /> 2 ○ frontend/);
  });

  it('l, e, Ctrl+T and Ctrl+W toggle the overlays; Esc closes one', async () => {
    const { press, until } = mount();
    await until(/backend/);
    expect(await press('l', /Log: backend/)).toContain('18:00:01 backend: Spawning -> Running');
    await press('l', /> 1 ● backend/);
    expect(await press('e', /Events/)).toContain('18:00:01 backend: Spawning -> Running (seq 1)');
    await press(ESC, /> 1 ● backend/);
    expect(await press(KEYS.ctrlT, /Tasks/)).toMatch(/demo#0 {2}claimed {3}API endpoint/);
    const workflows = await press(KEYS.ctrlW, /Workflows/);
    expect(workflows).toContain('wf-2  ship  awaiting_approval  stage review  awaiting approval: review');
    expect(workflows).toContain('wf-1  ship  completed');
  });

  it('the input bar sends to the selected agent, and broadcasts with --urgent', async () => {
    const { app, press, sent } = mount();
    await press('2', /> 2 ○ frontend/);
    // Typed at once, before a redraw: the keys after `:` go to the input bar.
    app.stdin.write(':');
    await press('hello there', /: hello there█/);
    await press('\r', /sent to frontend/);
    expect(sent).toEqual([['frontend', 'hello there', false]]);
    await press(':', /: █/);
    await press('broadcast wrap up --urgent', /wrap up --urgent█/);
    await press('\r', /sent to backend, frontend/);
    expect(sent[1]).toEqual([null, 'wrap up', true]);
  });

  it('q detaches without stopping; Ctrl+C stops with merge, the default mode', async () => {
    const one = mount();
    await one.until(/backend/);
    one.app.stdin.write('q');
    await until(() => one.exits.length === 1);
    expect(one.exits).toEqual([['detach', '']]);
    expect(one.stops).toEqual([]);
    const two = mount();
    await two.until(/backend/);
    two.app.stdin.write('\u0003');
    await until(() => two.exits.length === 1);
    expect(two.stops).toEqual(['merge']);
    expect(two.exits).toEqual([['stop', 'session 20261127-a3f2 stopped (merge)']]);
  });
});

describe('swarm dashboard input bar parser', () => {
  it('parses send, broadcast, stop and plain text', () => {
    expect(parseCommand('send backend fix it --urgent', 'x')).toEqual({
      kind: 'send',
      to: 'backend',
      body: 'fix it',
      urgent: true,
    });
    expect(parseCommand('stop --squash', 'x')).toEqual({ kind: 'stop', mode: 'squash' });
    expect(parseCommand('stop', 'x')).toEqual({ kind: 'stop', mode: 'merge' });
    expect(parseCommand('stop --later', 'x')).toEqual({ kind: 'error', message: 'stop: unknown mode --later' });
    expect(parseCommand('send backend', 'x').kind).toBe('error');
    expect(parseCommand('  ', 'x')).toEqual({ kind: 'none' });
    expect(parseCommand('hi', null)).toEqual({ kind: 'error', message: 'no agent selected' });
  });
});

describe('swarm dashboard redraw coalescing', () => {
  it('delivers a burst of 50 updates at most twice in 100 ms, the last value last', async () => {
    const got: number[] = [];
    const c = coalesce<number>((v) => got.push(v), 100);
    for (let i = 1; i <= 50; i++) c.push(i);
    expect(got).toEqual([1]);
    await until(() => got.length === 2);
    expect(got).toEqual([1, 50]);
  });
});

async function until(fn: () => boolean): Promise<void> {
  for (let t = 0; t < 150; t++) {
    if (fn()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('timed out');
}
