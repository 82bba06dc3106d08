/**
 * @swarm/core: colony as a library. This file is the whole public API.
 * `openColony()` wires storage, coordination and the tool registry into one object;
 * other agent frameworks call `handleToolCall(name, args)` or export the tools as
 * OpenAI / Anthropic function schemas.
 */

// Re-exported vocabulary (clock, search ranking, embedders, token counting, the IDE hooks' inputs
// and outputs), so library users need one import
export {
  type BackfillResult,
  type Clock,
  DEFAULT_RATE_LIMITS,
  type Embedder,
  estimatingTokenCounter,
  type ForagingScanResult,
  formatHookOutput,
  type HashingEmbedderOptions,
  HOOK_EVENTS,
  HOOK_IDES,
  type HookEvent,
  type HookIde,
  HookInputError,
  type HookResult,
  type HookService,
  hashingEmbedder,
  type IndexStatus,
  isHookEvent,
  isHookIde,
  type ManualClock,
  manualClock,
  parseHookPayload,
  type RateLimitRule,
  type RateLimitSettings,
  type RepoLocation,
  type RepoLocator,
  type SavingsRates,
  type SavingsReference,
  type SearchCandidate,
  type SearchRanker,
  systemClock,
  type TokenCounter,
  type VectorIndex,
} from '@swarm/coordination';
export {
  type AnthropicTool,
  COLONY_TOOLS,
  ColonyError,
  ERROR_CODES,
  type ErrorCode,
  getSchemas,
  type OpenAITool,
  type ToolCallOutcome,
  type ToolErrorPayload,
  type Toolset,
} from '@swarm/tools';
// IDE hooks and installation
export { locateRepo } from '@swarm/worktree';
export { InstallError } from './install/_config-file';
export {
  HOOK_TIMEOUT_SECONDS,
  INSTALL_IDES,
  type InstalledFile,
  type InstallIde,
  type InstallItem,
  type InstallOptions,
  type InstallReport,
  installIde,
  type Launcher,
  shellCommand,
} from './install/install';
// Opening colony
export { type Colony, type ColonyStatus, type OpenColonyOptions, openColony } from './open-colony';
export { DB_FILE, resolveDbPath, resolveHome } from './paths';
// Plans from scripts
export {
  loadPlanFile,
  type PlanDocument,
  type PlanDryRun,
  type PlanListFilter,
  type PlanScripts,
  type PublishOptions,
  SCRIPT_AGENT,
  SCRIPT_SESSION_ID,
} from './plans';
export { SAVINGS_REFERENCE } from './savings-reference';
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
