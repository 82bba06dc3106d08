/**
 * `@swarm/core/runtime`: the agent runtime composed with colony (`colony swarm start`
 * and the commands that control a session). A separate entry, so importing
 * `@swarm/core` never loads the runtime or a provider SDK.
 */

// Read-only views of a session (the viewer's runtime panel reads them too).
export { colonySessionId } from '@swarm/runtime';
export type { SwarmSessionStatus } from './_status.js';
export { planCounts, readSessionStatus } from './_status.js';
export {
  type CleanResult,
  type ControlOptions,
  cleanSwarm,
  repoRootOf,
  type StopResult,
  SwarmControlError,
  sendToAgents,
  stopSwarm,
  swarmStatus,
} from './control.js';
export { type RunSwarmOptions, type RunSwarmResult, runSwarm, SwarmStartError } from './orchestrator.js';
