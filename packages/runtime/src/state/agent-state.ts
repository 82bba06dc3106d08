/**
 * @module state/agent-state
 * The vocabulary of seed 003's agent state machine (`agent::state`): 8 states, 9
 * events, 6 side effects, the exit outcomes. Plain data, so a runner, a status
 * command and a test all read the same values.
 */

export type AgentState =
  /** Registered; waiting for its git worktree. */
  | { readonly kind: 'Initializing' }
  /** Assembling the system prompt. */
  | { readonly kind: 'BuildingPrompt' }
  /** Prompt stored; launching a backend session. */
  | { readonly kind: 'Spawning' }
  | { readonly kind: 'Running'; readonly session_seq: number }
  /** Graceful cancellation requested (urgent message); waiting for the session to exit. */
  | { readonly kind: 'Interrupting'; readonly session_seq: number }
  /** The session exited successfully; ready for the next iteration. */
  | { readonly kind: 'SessionComplete' }
  /** The session failed; waiting until `until` (epoch ms from the injected clock). */
  | { readonly kind: 'CoolingDown'; readonly until: number }
  /** Terminal. */
  | { readonly kind: 'Stopped' };

export type AgentStateKind = AgentState['kind'];

export const AGENT_STATE_KINDS: readonly AgentStateKind[] = [
  'Initializing',
  'BuildingPrompt',
  'Spawning',
  'Running',
  'Interrupting',
  'SessionComplete',
  'CoolingDown',
  'Stopped',
];

/** `AgentState::is_terminal()`: true only for Stopped. */
export function isTerminal(state: AgentState): boolean {
  return state.kind === 'Stopped';
}

export type ExitOutcome =
  | { readonly kind: 'success' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'timeout' };

export type AgentEvent =
  | { readonly type: 'WorktreeReady' }
  | { readonly type: 'PromptReady'; readonly prompt: string }
  | { readonly type: 'SessionStarted'; readonly seq: number }
  | { readonly type: 'SessionExited'; readonly outcome: ExitOutcome }
  | { readonly type: 'UrgentMessage' }
  | { readonly type: 'GraceExceeded' }
  | { readonly type: 'BackoffElapsed' }
  /** Global: valid from any state. */
  | { readonly type: 'OperatorStop' }
  /** Global: valid from any state. */
  | { readonly type: 'FatalError'; readonly message: string };

export type SideEffect =
  | { readonly type: 'StorePrompt'; readonly prompt: string }
  | { readonly type: 'CancelSession' }
  | { readonly type: 'ForceStopSession' }
  | { readonly type: 'IncrementSession' }
  | { readonly type: 'LogFatal'; readonly message: string };

/** A state plus the two error counters the transitions read and reset. */
export interface AgentMachine {
  readonly state: AgentState;
  /** +1 per failed session; reset by SessionStarted and a successful exit. */
  readonly consecutive_errors: number;
  /** +1 per failed session; never reset. */
  readonly total_errors: number;
}

export function initialMachine(): AgentMachine {
  return { state: { kind: 'Initializing' }, consecutive_errors: 0, total_errors: 0 };
}
