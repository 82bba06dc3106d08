/**
 * @swarm/coordination: colony's domain rules. This file is the whole public API: what
 * its consumers (@swarm/core, the bench, the documented pure functions) use. Services
 * implement the backend interface of @swarm/tools on top of @swarm/storage; side
 * effects (clock, token counter, settings) are passed in. Everything else is internal:
 * import it by module path inside this package (its tests do).
 */

// The services, as types (each is a field of `Services`)
export type { AttentionService } from './attention/attention-service';
// Pure rules reused outside the services (documented in docs/library.md)
export { fileHeat } from './attention/file-heat';
export { stalledLanes } from './attention/stalled-lanes';
export type { BatonService } from './batons/baton-service';
export type { ClaimService } from './claims/claim-service';
// Side effects passed in: the clock and token counting (with the worker that counts off the caller's thread)
export { type Clock, fileClock, type ManualClock, manualClock, systemClock } from './clock';
// The service graph, built once, and what it is built from
export { composeServices, type ServiceDeps, type Services } from './compose';
export {
  type CoordinationSettings,
  DEFAULT_COORDINATION_SETTINGS,
  type DomainContext,
} from './context';
export type { ExamplesService, ForagingScanResult } from './foraging/examples-service';
// Seed-000 framework tools: rate limits; the `tool_calls` envelope of a model's reply and the Orchestrator
export { parseToolCalls, type ToolCallRequest } from './framework/envelope';
export type { FrameworkOptions } from './framework/framework-service';
export { formatTurnReport, Orchestrator, type ToolCaller, type TurnReport } from './framework/orchestrator';
export { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimitSettings } from './framework/rate-limiter';
// IDE hooks: the event vocabulary, the payload parser, the service and its output per IDE
export {
  HOOK_EVENTS,
  HOOK_IDES,
  type HookEvent,
  type HookIde,
  HookInputError,
  isHookEvent,
  isHookIde,
  parseHookPayload,
} from './hooks/hook-input';
export { type HookResult, HookService, type RepoLocation, type RepoLocator } from './hooks/hook-service';
export { formatHookOutput } from './hooks/ide-output';
// Iteration runs (`colony swarm iterate`): the config, progress detection, the service
export {
  type IterationConfig,
  IterationConfigSchema,
  type ParsedIterationConfig,
  parseIterationConfig,
} from './iterations/iteration-config';
export type { IterationRunView, IterationService } from './iterations/iteration-service';
export { type Decision, decide, type ProgressState, parseScore, type StopReason } from './iterations/progress';
export type { LaneService } from './lanes/lane-service';
export type { StartupService } from './lanes/startup-service';
export type { LinkService } from './links/link-service';
// Search: the embedder seam, stored vectors, re-rankers
export { type Embedder, hashingEmbedder } from './memory/embedder';
export type { MemoryService, SearchRanker } from './memory/memory-service';
export { VectorIndex } from './memory/vector-index';
export type { MessageService } from './messages/message-service';
export {
  type PlanDocument,
  type PlanDryRun,
  type PlanListFilter,
  type PlanScripts,
  type PublishOptions,
  planScripts,
} from './plans/plan-scripts';
export type { PlanService } from './plans/plan-service';
export type { ProfileService } from './profiles/profile-service';
export type { ProposalService } from './proposals/proposal-service';
export { decomposeGoal } from './queen/decompose-goal';
export type { QueenService } from './queen/queen-service';
export { rankReady } from './ready/rank-ready';
export type { ReadyService } from './ready/ready-service';
export type { RescueService } from './rescue/rescue-service';
// File roots: which roots file tools may read and write under
export { FileRoots, type FileRootsOptions, repositoryOf } from './roots';

// Savings: rates, the reference model, receipts per hour
export type {
  SavingsHour,
  SavingsRates,
  SavingsReference,
  SavingsTimeline,
} from './savings/savings-service';
export type { SpecFileOps } from './specs/spec-files';
export type { SpecService } from './specs/spec-service';
export type { SuggestService } from './suggest/suggest-service';
export { type CountJob, type TokenWorker, tokenWorker } from './token-worker';
export { createTokenCounter, estimateTokens, estimatingTokenCounter, type TokenCounter } from './tokens';
// Workflows (`colony swarm workflow`): the definition, its rules and problems, the run graph, the service
export { type ParsedWorkflow, parseWorkflow, validateWorkflow } from './workflows/parse-workflow';
export { readyStages, type StageState, upstreamOf } from './workflows/stage-graph';
export {
  type InputCheck,
  parseInputPairs,
  resolveInputs,
  type Substitutions,
  shellQuote,
  substituteShell,
  substituteText,
} from './workflows/substitute';
export type {
  AgentStage,
  ApprovalStage,
  CheckStage,
  CommandStage,
  StageType,
  WorkflowDefinition,
  WorkflowStage,
} from './workflows/workflow-definition';
export { type WorkflowProblem, type WorkflowProblemKind, workflowProblems } from './workflows/workflow-errors';
export type { GateResult, StageGroup } from './workflows/workflow-gates';
export type { Outcome, WorkflowService } from './workflows/workflow-service';
export {
  type DriverAlive,
  type WorkflowRunState,
  type WorkflowRunView,
  type WorkflowStageView,
  withLiveness,
} from './workflows/workflow-view';
