/**
 * `@swarm/core/runtime`: the agent runtime composed with colony (`colony swarm start`
 * and the commands that control a session). A separate entry, so importing
 * `@swarm/core` never loads the runtime or a provider SDK.
 */

export type { HookDispatchResult } from '@swarm/runtime';
// Read-only views of a session (the viewer's runtime panel reads them too).
export { colonySessionId } from '@swarm/runtime';
export type { SwarmSessionStatus } from './_status.js';
export { planCounts, readSessionStatus } from './_status.js';
export {
  initSwarmConfig,
  projectRootOf,
  type SandboxView,
  type SwarmConfigResult,
  type SwarmConfigView,
  sandboxView,
  swarmConfig,
} from './config.js';
export {
  type CleanPlan,
  type CleanResult,
  type ControlOptions,
  cleanPlan,
  cleanSwarm,
  repoRootOf,
  type StopResult,
  SwarmControlError,
  sendToAgents,
  stopSwarm,
  swarmStatus,
} from './control.js';
export { checkPermission, type PermissionCheck, runHooks } from './governance.js';
export {
  type RunSwarmSessionOptions,
  type RunSwarmSessionResult,
  runSwarmSession,
  SwarmStartError,
} from './session-runner.js';
export { runWasmTool, type WasmRunResult } from './wasm-run.js';
