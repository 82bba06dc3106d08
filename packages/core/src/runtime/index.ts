/**
 * `@swarm/core/runtime`: the agent runtime composed with colony (`colony swarm start`
 * and the commands that control a session). A separate entry, so importing
 * `@swarm/core` never loads the runtime or a provider SDK.
 */

// Workflows and the iteration engine (`colony swarm workflow`, `colony swarm iterate`)
export type { WorkflowRunView, WorkflowStageView } from '@swarm/coordination';
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
export { listMcpServers, type McpListResult } from './mcp.js';
export {
  type RunSwarmSessionOptions,
  type RunSwarmSessionResult,
  runSwarmSession,
  SwarmStartError,
} from './session-runner.js';
export { listSkills, type ShownSkill, type SkillListing, type SkillsListResult, showSkill } from './skills.js';
export { runWasmTool, type WasmRunResult } from './wasm-run.js';
export { type IterateOptions, type IterationEvent, iterate } from './workflows/iterate.js';
export { IterationConfigError } from './workflows/load-iteration.js';
export { WorkflowError } from './workflows/load-workflow.js';
export {
  approveWorkflow,
  cancelWorkflow,
  listWorkflows,
  rejectWorkflow,
  resumeWorkflow,
  retryWorkflow,
  startWorkflow,
  validateWorkflowByName,
  type WorkflowControlOptions,
  type WorkflowListEntry,
  workflowStatus,
} from './workflows/workflow-control.js';
