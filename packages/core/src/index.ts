/**
 * @swarm/core: colony as a library. This file is the whole public API.
 * `openColony()` wires storage, coordination and the tool registry into one object;
 * other agent frameworks call `handleToolCall(name, args)` or export the tools as
 * OpenAI / Anthropic function schemas.
 */

// Re-exported vocabulary, so library users need one import
export {
  type Clock,
  DEFAULT_RATE_LIMITS,
  type ManualClock,
  manualClock,
  type RateLimitRule,
  type RateLimitSettings,
  type SearchCandidate,
  type SearchRanker,
  systemClock,
} from '@swarm/coordination';
export {
  COLONY_TOOLS,
  ColonyError,
  ERROR_CODES,
  type ErrorCode,
  type ToolCallOutcome,
  type ToolErrorPayload,
  type Toolset,
} from '@swarm/tools';
// Opening colony
export { type Colony, type ColonyStatus, type OpenColonyOptions, openColony } from './open-colony';
export { DB_FILE, resolveDbPath, resolveHome } from './paths';
export { defaultSettings, loadSettings, SETTINGS_FILE, type Settings, SettingsSchema } from './settings';
// Seed-000 tool_calls envelope: parse a model's reply, run its calls, apply an arbiter's decisions
export {
  type EnvelopeError,
  MAX_CALLS_PER_REPLY,
  MAX_REPLY_CHARS,
  type ParsedReply,
  parseToolCalls,
  type ToolCallRequest,
} from './swarm/envelope';
export {
  type ArbiterReport,
  type CallReport,
  formatTurnReport,
  Orchestrator,
  type OrchestratorOptions,
  parseArbiterReply,
  type ToolCaller,
  type TurnReport,
} from './swarm/orchestrator';
