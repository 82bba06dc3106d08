/**
 * @swarm/core: colony as a library. This file is the whole public API.
 * `openColony()` wires storage, coordination and the tool registry into one object;
 * other agent frameworks call `handleToolCall(name, args)` or export the tools as
 * OpenAI / Anthropic function schemas.
 */

// Re-exported vocabulary, so library users need one import
export {
  type Clock,
  type ManualClock,
  manualClock,
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
export { defaultSettings, loadSettings, SETTINGS_FILE, type Settings, SettingsSchema } from './settings';
