import { describe, expect, it } from 'vitest';
import {
  AGENT_STATE_KINDS,
  type AgentEvent,
  type AgentMachine,
  type AgentState,
  initialMachine,
  isTerminal,
  type SideEffect,
} from './agent-state.js';
import { backoffMs, transition } from './transition.js';

const NOW = 1_700_000_000_000;
const ctx = { now: () => NOW };
const machine = (state: AgentState, consecutive_errors = 0, total_errors = 0): AgentMachine => ({
  state,
  consecutive_errors,
  total_errors,
});
const ERR = { kind: 'error', message: 'API 500' } as const;
const TIMEOUT = { kind: 'timeout' } as const;
const SUCCESS = { kind: 'success' } as const;
const STATES: Record<string, AgentState> = {
  Initializing: { kind: 'Initializing' },
  BuildingPrompt: { kind: 'BuildingPrompt' },
  Spawning: { kind: 'Spawning' },
  Running: { kind: 'Running', session_seq: 3 },
  Interrupting: { kind: 'Interrupting', session_seq: 3 },
  SessionComplete: { kind: 'SessionComplete' },
  CoolingDown: { kind: 'CoolingDown', until: NOW + 5 },
  Stopped: { kind: 'Stopped' },
};

interface Row {
  readonly id: string;
  readonly from: AgentMachine;
  readonly event: AgentEvent;
  readonly to: AgentMachine;
  readonly effects: SideEffect[];
}

// Seed 003's transition table, one row each (inventory ids TT-01..TT-13, TG-01..TG-02).
const ROWS: Row[] = [
  {
    id: 'TT-01',
    from: machine(STATES.Initializing!),
    event: { type: 'WorktreeReady' },
    to: machine(STATES.BuildingPrompt!),
    effects: [],
  },
  {
    id: 'TT-02',
    from: machine(STATES.BuildingPrompt!),
    event: { type: 'PromptReady', prompt: 'P' },
    to: machine(STATES.Spawning!),
    effects: [{ type: 'StorePrompt', prompt: 'P' }],
  },
  {
    id: 'TT-03 (resets consecutive_errors)',
    from: machine(STATES.Spawning!, 2, 7),
    event: { type: 'SessionStarted', seq: 4 },
    to: machine({ kind: 'Running', session_seq: 4 }, 0, 7),
    effects: [],
  },
  {
    id: 'TT-04',
    from: machine(STATES.Spawning!, 0, 0),
    event: { type: 'SessionExited', outcome: ERR },
    to: machine({ kind: 'CoolingDown', until: NOW + 2000 }, 1, 1),
    effects: [],
  },
  {
    id: 'TT-04 at the limit',
    from: machine(STATES.Spawning!, 4, 4),
    event: { type: 'SessionExited', outcome: ERR },
    to: machine(STATES.Stopped!, 5, 5),
    effects: [
      {
        type: 'LogFatal',
        message: 'agent stopped after 5 consecutive errors (max_consecutive_errors 5); last error: API 500',
      },
    ],
  },
  {
    id: 'TT-05',
    from: machine(STATES.Spawning!, 1, 1),
    event: { type: 'SessionExited', outcome: TIMEOUT },
    to: machine({ kind: 'CoolingDown', until: NOW + 4000 }, 2, 2),
    effects: [],
  },
  {
    id: 'TT-06 (resets consecutive_errors)',
    from: machine(STATES.Running!, 3, 9),
    event: { type: 'SessionExited', outcome: SUCCESS },
    to: machine(STATES.SessionComplete!, 0, 9),
    effects: [],
  },
  {
    id: 'TT-07',
    from: machine(STATES.Running!, 2, 2),
    event: { type: 'SessionExited', outcome: ERR },
    to: machine({ kind: 'CoolingDown', until: NOW + 8000 }, 3, 3),
    effects: [],
  },
  {
    id: 'TT-07 at the total limit',
    from: machine(STATES.Running!, 0, 19),
    event: { type: 'SessionExited', outcome: ERR },
    to: machine(STATES.Stopped!, 1, 20),
    effects: [
      {
        type: 'LogFatal',
        message: 'agent stopped after 20 errors in total (max_total_errors 20); last error: API 500',
      },
    ],
  },
  {
    id: 'TT-08',
    from: machine(STATES.Running!, 3, 3),
    event: { type: 'SessionExited', outcome: TIMEOUT },
    to: machine({ kind: 'CoolingDown', until: NOW + 16000 }, 4, 4),
    effects: [],
  },
  {
    id: 'TT-09',
    from: machine(STATES.Running!),
    event: { type: 'UrgentMessage' },
    to: machine({ kind: 'Interrupting', session_seq: 3 }),
    effects: [{ type: 'CancelSession' }],
  },
  {
    id: 'TT-10 (no error increment)',
    from: machine(STATES.Interrupting!, 1, 1),
    event: { type: 'SessionExited', outcome: ERR },
    to: machine(STATES.BuildingPrompt!, 1, 1),
    effects: [],
  },
  {
    id: 'TT-10 on success',
    from: machine(STATES.Interrupting!, 1, 1),
    event: { type: 'SessionExited', outcome: SUCCESS },
    to: machine(STATES.BuildingPrompt!, 1, 1),
    effects: [],
  },
  {
    id: 'TT-11',
    from: machine(STATES.Interrupting!),
    event: { type: 'GraceExceeded' },
    to: machine(STATES.BuildingPrompt!),
    effects: [{ type: 'ForceStopSession' }],
  },
  {
    id: 'TT-12',
    from: machine(STATES.SessionComplete!),
    event: { type: 'WorktreeReady' },
    to: machine(STATES.BuildingPrompt!),
    effects: [{ type: 'IncrementSession' }],
  },
  {
    id: 'TT-13',
    from: machine(STATES.CoolingDown!, 1, 1),
    event: { type: 'BackoffElapsed' },
    to: machine(STATES.BuildingPrompt!, 1, 1),
    effects: [],
  },
];

// TG-01 and TG-02 from every state but Stopped (OperatorStop from Stopped is a no-op).
for (const [name, state] of Object.entries(STATES)) {
  if (name !== 'Stopped') {
    const cancel = name === 'Running' || name === 'Interrupting';
    ROWS.push({
      id: `TG-01 from ${name}`,
      from: machine(state, 1, 2),
      event: { type: 'OperatorStop' },
      to: machine(STATES.Stopped!, 1, 2),
      effects: cancel ? [{ type: 'CancelSession' }] : [],
    });
  }
  ROWS.push({
    id: `TG-02 from ${name}`,
    from: machine(state, 1, 2),
    event: { type: 'FatalError', message: 'disk full' },
    to: machine(STATES.Stopped!, 1, 2),
    effects: [{ type: 'LogFatal', message: 'disk full' }],
  });
}

describe('transition (seed 003 agent state machine)', () => {
  it.each(ROWS.map((row) => [row.id, row] as const))('%s', (_id, row) => {
    const result = transition(row.from, row.event, ctx);
    expect(result.ignored).toBe(false);
    expect(result.machine).toEqual(row.to);
    expect(result.effects).toEqual(row.effects);
  });

  it('ignores an event a state has no row for, changing nothing', () => {
    const covered = new Set(ROWS.map((r) => `${r.from.state.kind}:${r.event.type}`));
    const events: AgentEvent[] = [
      { type: 'WorktreeReady' },
      { type: 'PromptReady', prompt: 'p' },
      { type: 'SessionStarted', seq: 1 },
      { type: 'SessionExited', outcome: ERR },
      { type: 'UrgentMessage' },
      { type: 'GraceExceeded' },
      { type: 'BackoffElapsed' },
      { type: 'OperatorStop' },
    ];
    let checked = 0;
    for (const state of Object.values(STATES)) {
      for (const event of events) {
        if (covered.has(`${state.kind}:${event.type}`)) continue;
        const from = machine(state, 1, 1);
        expect(transition(from, event, ctx)).toEqual({ machine: from, effects: [], ignored: true });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
    // A successful exit while still Spawning has no row either.
    const spawning = machine(STATES.Spawning!);
    expect(transition(spawning, { type: 'SessionExited', outcome: SUCCESS }, ctx).ignored).toBe(true);
  });

  it('backs off min(2000 * 2^(n-1), 60000) ms', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(backoffMs)).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  it('with the default limits stops at the 5th consecutive failure after waits of 2, 4, 8 and 16 s', () => {
    let m = machine(STATES.Running!);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      m = transition(m, { type: 'SessionExited', outcome: ERR }, ctx).machine;
      if (m.state.kind === 'CoolingDown') {
        waits.push(m.state.until - NOW);
        m = transition(m, { type: 'BackoffElapsed' }, ctx).machine;
        m = transition(m, { type: 'PromptReady', prompt: 'p' }, ctx).machine;
        // Spawning: fail again before SessionStarted so consecutive_errors is not reset.
        m = { ...m, state: { kind: 'Running', session_seq: 1 } };
      }
    }
    expect(waits).toEqual([2000, 4000, 8000, 16000]);
    expect(m).toEqual(machine(STATES.Stopped!, 5, 5));
  });

  it('honours configured limits: 32 s needs max_consecutive_errors >= 6', () => {
    const loose = { now: () => NOW, max_consecutive_errors: 7, max_total_errors: 100 };
    const r = transition(machine(STATES.Running!, 4, 4), { type: 'SessionExited', outcome: ERR }, loose);
    expect(r.machine.state).toEqual({ kind: 'CoolingDown', until: NOW + 32000 });
  });

  it('names the 8 states and only Stopped is terminal', () => {
    expect(AGENT_STATE_KINDS).toHaveLength(8);
    expect(Object.values(STATES).filter(isTerminal)).toEqual([{ kind: 'Stopped' }]);
    expect(initialMachine()).toEqual(machine(STATES.Initializing!));
  });
});
