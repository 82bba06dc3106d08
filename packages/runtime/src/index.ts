/**
 * @swarm/runtime: the whole public API. The worktree-independent core of the agent
 * runtime (seed 003): the agent state machine, the tool-use loop, settings and the
 * prompt pipeline. It reaches colony only through `ToolCaller` (the calls an IDE agent
 * makes), never through storage or coordination.
 */

// The tool-use loop and the door to colony
export {
  type AgentLoopOptions,
  type BeforeToolCall,
  type LoopBudgets,
  type LoopEvent,
  type LoopOutcome,
  type LoopProgress,
  type LoopResult,
  loopExitOutcome,
  overBudget,
  runAgentLoop,
  type ToolDecision,
} from './loop/agent-loop.js';
export {
  routeTools,
  type ToolCall,
  type ToolCaller,
  type ToolExecutor,
  type ToolResult,
  toolCallerExecutor,
} from './loop/tool-caller.js';
// State machine
export {
  AGENT_STATE_KINDS,
  type AgentEvent,
  type AgentMachine,
  type AgentState,
  type AgentStateKind,
  type ExitOutcome,
  initialMachine,
  isTerminal,
  type SideEffect,
} from './state/agent-state.js';
export {
  backoffMs,
  DEFAULT_MAX_CONSECUTIVE_ERRORS,
  DEFAULT_MAX_TOTAL_ERRORS,
  type TransitionContext,
  type TransitionResult,
  transition,
} from './state/transition.js';
