/**
 * @module state/transition
 * Seed 003's transition table as one pure function. `transition(machine, event, ctx)`
 * returns the next machine (state + error counters) and the side effects the runner
 * performs (seed `SideEffect::None` is the empty list). An event the current state has
 * no row for changes nothing and comes back `ignored: true`, so a late event (a session
 * exit after an operator stop, say) is harmless. Time comes from `ctx.now()` only.
 *
 * Error rule: a session that exits with Error or Timeout from Spawning or Running adds
 * one to both counters; when either reaches its limit the agent stops (LogFatal), else
 * it cools down for `backoffMs(consecutive_errors)`. Exits while Interrupting never
 * count ("interrupts are intentional").
 */
import type { AgentEvent, AgentMachine, AgentState, ExitOutcome, SideEffect } from './agent-state.js';

export interface TransitionContext {
  /** Epoch ms from the injected clock. */
  now(): number;
  /** Default 5. */
  readonly max_consecutive_errors?: number;
  /** Default 20. */
  readonly max_total_errors?: number;
}

export interface TransitionResult {
  readonly machine: AgentMachine;
  readonly effects: readonly SideEffect[];
  /** True when the state has no row for the event (nothing changed). */
  readonly ignored: boolean;
}

export const DEFAULT_MAX_CONSECUTIVE_ERRORS = 5;
export const DEFAULT_MAX_TOTAL_ERRORS = 20;

/** `min(2000 * 2^(n-1), 60000)` ms, n = consecutive errors after the increment (n >= 1). */
export function backoffMs(consecutiveErrors: number): number {
  const n = Math.max(1, consecutiveErrors);
  return Math.min(2000 * 2 ** (n - 1), 60_000);
}

export function transition(machine: AgentMachine, event: AgentEvent, ctx: TransitionContext): TransitionResult {
  const { state } = machine;
  const to = (
    next: AgentState,
    effects: SideEffect[] = [],
    counters: Partial<AgentMachine> = {},
  ): TransitionResult => ({
    machine: { ...machine, ...counters, state: next },
    effects,
    ignored: false,
  });
  // Global rows first: valid from any state.
  if (event.type === 'OperatorStop') {
    if (state.kind === 'Stopped') return ignore(machine);
    const cancel = state.kind === 'Running' || state.kind === 'Interrupting';
    return to({ kind: 'Stopped' }, cancel ? [{ type: 'CancelSession' }] : []);
  }
  if (event.type === 'FatalError') {
    return to({ kind: 'Stopped' }, [{ type: 'LogFatal', message: event.message }]);
  }
  switch (state.kind) {
    case 'Initializing':
      if (event.type === 'WorktreeReady') return to({ kind: 'BuildingPrompt' });
      break;
    case 'BuildingPrompt':
      if (event.type === 'PromptReady')
        return to({ kind: 'Spawning' }, [{ type: 'StorePrompt', prompt: event.prompt }]);
      break;
    case 'Spawning':
      if (event.type === 'SessionStarted') {
        return to({ kind: 'Running', session_seq: event.seq }, [], { consecutive_errors: 0 });
      }
      if (event.type === 'SessionExited' && event.outcome.kind !== 'success')
        return failed(machine, event.outcome, ctx);
      break;
    case 'Running':
      if (event.type === 'SessionExited') {
        if (event.outcome.kind === 'success') return to({ kind: 'SessionComplete' }, [], { consecutive_errors: 0 });
        return failed(machine, event.outcome, ctx);
      }
      if (event.type === 'UrgentMessage') {
        return to({ kind: 'Interrupting', session_seq: state.session_seq }, [{ type: 'CancelSession' }]);
      }
      break;
    case 'Interrupting':
      if (event.type === 'SessionExited') return to({ kind: 'BuildingPrompt' });
      if (event.type === 'GraceExceeded') return to({ kind: 'BuildingPrompt' }, [{ type: 'ForceStopSession' }]);
      break;
    case 'SessionComplete':
      if (event.type === 'WorktreeReady') return to({ kind: 'BuildingPrompt' }, [{ type: 'IncrementSession' }]);
      break;
    case 'CoolingDown':
      if (event.type === 'BackoffElapsed') return to({ kind: 'BuildingPrompt' });
      break;
    case 'Stopped':
      break;
  }
  return ignore(machine);
}

function ignore(machine: AgentMachine): TransitionResult {
  return { machine, effects: [], ignored: true };
}

function failed(
  machine: AgentMachine,
  outcome: Exclude<ExitOutcome, { kind: 'success' }>,
  ctx: TransitionContext,
): TransitionResult {
  const consecutive_errors = machine.consecutive_errors + 1;
  const total_errors = machine.total_errors + 1;
  const maxConsecutive = ctx.max_consecutive_errors ?? DEFAULT_MAX_CONSECUTIVE_ERRORS;
  const maxTotal = ctx.max_total_errors ?? DEFAULT_MAX_TOTAL_ERRORS;
  const counters = { consecutive_errors, total_errors };
  const why = outcome.kind === 'timeout' ? 'session timed out' : outcome.message;
  if (consecutive_errors >= maxConsecutive || total_errors >= maxTotal) {
    const limit =
      consecutive_errors >= maxConsecutive
        ? `${consecutive_errors} consecutive errors (max_consecutive_errors ${maxConsecutive})`
        : `${total_errors} errors in total (max_total_errors ${maxTotal})`;
    const message = `agent stopped after ${limit}; last error: ${why}`;
    return {
      machine: { ...counters, state: { kind: 'Stopped' } },
      effects: [{ type: 'LogFatal', message }],
      ignored: false,
    };
  }
  const until = ctx.now() + backoffMs(consecutive_errors);
  return { machine: { ...counters, state: { kind: 'CoolingDown', until } }, effects: [], ignored: false };
}
