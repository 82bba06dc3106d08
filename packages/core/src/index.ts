/**
 * @swarm/core: colony as a library. This file is the whole public API.
 * `openColony()` wires storage, coordination and the tool registry into one object;
 * other agent frameworks call `handleToolCall(name, args)` or export the tools as
 * OpenAI / Anthropic function schemas. Named exports, grouped by topic: what the apps,
 * the examples and docs/library.md and docs/framework.md use.
 */

// Services a colony exposes, as types
// Plans from scripts (`colony.plans`)
export type {
  HookService,
  PlanDocument,
  PlanDryRun,
  PlanListFilter,
  PlanScripts,
  PublishOptions,
  SavingsHour,
  SavingsTimeline,
  Services,
  VectorIndex,
} from '@swarm/coordination';
// Side effects and search seams passed to openColony (clock, tokens, embedders, rankers, rate limits)
// IDE hooks: what `colony hook run` reads and answers, and where a path's repository is
// Seed-000 framework: parse a model's `tool_calls` reply, run its calls, apply an arbiter's decisions
export {
  type Clock,
  type Embedder,
  estimatingTokenCounter,
  formatHookOutput,
  formatTurnReport,
  HOOK_EVENTS,
  HOOK_IDES,
  type HookEvent,
  type HookIde,
  HookInputError,
  type HookResult,
  hashingEmbedder,
  isHookEvent,
  isHookIde,
  type ManualClock,
  manualClock,
  Orchestrator,
  parseHookPayload,
  parseToolCalls,
  type RateLimitSettings,
  type RepoLocation,
  type RepoLocator,
  type SavingsRates,
  type SearchRanker,
  systemClock,
  type TokenCounter,
  type ToolCaller,
  type ToolCallRequest,
  type TurnReport,
} from '@swarm/coordination';
// Moving a store: `colony store export` / `import` (colony-store JSON lines)
export {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportOptions,
  maskUrl,
  StoreTransferError,
  scrubSecret,
  type TransferCounts,
  type TransferErrorCode,
} from '@swarm/storage';
// The tool contract: call tools, hand their schemas to a model, read refusals
export {
  COLONY_TOOLS,
  ColonyError,
  ERROR_CODES,
  type ErrorCode,
  getSchemas,
  type ToolArgs,
  type ToolCallOutcome,
  type ToolError,
  type ToolErrorPayload,
  type ToolName,
  type ToolOutcome,
  type ToolResult,
  type Toolset,
} from '@swarm/tools';
// The OS sandbox of agent and exec commands (`colony doctor`, `colony swarm config`)
export { type DetectOptions, detectSandbox, locateRepo, type SandboxKind, type SandboxStatus } from '@swarm/worktree';
// Opening colony
export { connectColony, isPostgresUrl } from './connect-colony';
export { type Colony, type ColonyStatus, type OpenColonyOptions, openColony } from './open-colony';
export { defaultSettings, type LoadedSettings, loadSettings, SETTINGS_FILE, type Settings } from './settings';
export { exportStoreFile, importStoreFile } from './store-transfer';
export { exportStoreUrl, importStoreUrl } from './store-transfer-pg';
