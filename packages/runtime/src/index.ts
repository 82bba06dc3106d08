/**
 * @swarm/runtime: the whole public API. The worktree-independent core of the agent
 * runtime (seed 003): the agent state machine, the tool-use loop, settings, the
 * prompt pipeline, skills and the MCP client. It reaches colony only through
 * `ToolCaller` (the calls an IDE agent makes), never through storage or coordination.
 */

// Lifecycle hooks (seed 003's 13 events, command hooks)
export { type HookDecisionKind, parseDecision } from './lifecycle-hooks/decision.js';
export {
  type HookDispatchResult,
  type HookFields,
  LifecycleHooks,
  type LifecycleHooksOptions,
  matcherMatches,
} from './lifecycle-hooks/dispatch.js';
export {
  HOOK_EVENT_KEYS,
  HOOK_EVENT_NAMES,
  HOOK_EVENTS,
  type HookContext,
  type HookEvent,
  type HookEventKey,
  hookEventOf,
} from './lifecycle-hooks/events.js';
export { notifyingMailbox } from './lifecycle-hooks/notify.js';
export { type HookRun, type RunHookOptions, runHook } from './lifecycle-hooks/run-hook.js';
export {
  DEFAULT_HOOK_TIMEOUT_SECS,
  type HookHandler,
  type HooksConfig,
  HooksConfigSchema,
  type MatcherGroup,
} from './lifecycle-hooks/schema.js';
// Liveness (idle nudges, idle warning, stall)
export {
  checkLiveness,
  type LivenessAction,
  type LivenessDecision,
  type LivenessEpisode,
  newEpisode,
} from './liveness/liveness.js';
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
export { type GuardOptions, guardTools } from './loop/guard-tools.js';
export {
  routeTools,
  type ToolCall,
  type ToolCaller,
  type ToolExecutor,
  type ToolResult,
  toolCallerExecutor,
} from './loop/tool-caller.js';
export {
  type ColonyMailbox,
  type ColonyMailboxOptions,
  colonyMailbox,
  joinThread,
  type MarkAllRead,
} from './mailbox/colony-mailbox.js';
// Mailbox (messages and the urgent push)
export {
  type Mailbox,
  MailboxError,
  type MemoryMailbox,
  type MessageListener,
  memoryMailbox,
  OPERATOR,
  type OutgoingMessage,
  type PendingMail,
  type StoredMessage,
} from './mailbox/mailbox.js';
// MCP client (external MCP servers' tools as mcp__<server>__<tool>)
export {
  DEFAULT_MCP_STARTUP_TIMEOUT_SECS,
  MCP_SERVER_NAME,
  type McpServerConfig,
  McpServerConfigSchema,
  type McpServersConfig,
  McpServersSchema,
  type McpTransportConfig,
} from './mcp/config.js';
export { type ConnectOptions, connectMcpServer, type McpConnection, type McpToolDefinition } from './mcp/connect.js';
export { type Expanded, expandValues } from './mcp/expand-env.js';
export {
  type McpManager,
  type McpServerStatus,
  type StartMcpOptions,
  startMcpServers,
} from './mcp/manager.js';
export { isValidToolName, MCP_PREFIX, parsePrefixedName, prefixedName, resultText } from './mcp/mcp-tools.js';
// Permissions (rules, modes, the six-step evaluation, asking)
export {
  type AskAnswer,
  type Asker,
  type AskRequest,
  DEFAULT_ASK_TIMEOUT_MS,
  type MailboxAskerOptions,
  mailboxAsker,
} from './permissions/ask.js';
export { type CallSpec, parseCallSpec } from './permissions/call-spec.js';
export {
  evaluatePermission,
  type PermissionDecision,
  type PermissionPolicy,
  type PermissionStep,
  type PermissionVerdict,
  permissionMode,
} from './permissions/evaluate.js';
export {
  ALLOW_WORDS,
  DENY_WORDS,
  operatorAnswer,
  readOperatorReply,
  type TakeMessage,
} from './permissions/operator-reply.js';
export { permissionPolicyOf } from './permissions/policy.js';
export { type PrimaryInput, primaryInput } from './permissions/primary-input.js';
export { canonicalTool, type PermissionRule, parseRule, ruleMatches } from './permissions/rule.js';
// Prompt pipeline (14 sections, pure)
export {
  buildPrompt,
  formatAge,
  formatMessage,
  formatSubtask,
  type PromptSection,
  promptSections,
  SECTIONS,
} from './prompt/build-prompt.js';
export {
  CORE_MANDATES,
  DOING_TASKS,
  INTERRUPT_TEXT,
  MODE_INSTRUCTIONS,
  swarmWorkflow,
  TONE_AND_STYLE,
  TOOL_POLICY,
} from './prompt/fixed-sections.js';
export type { EnvironmentInfo, PromptContext, PromptMessage, ReadySubtask } from './prompt/prompt-context.js';
export { realSleep, type Sleep } from './runner/_waker.js';
// Runner, registry, router, budgets
export { type Budget, BudgetMeter } from './runner/budget.js';
export { DEFAULT_HEARTBEAT_SECS, Heartbeat } from './runner/heartbeat.js';
export { LivenessMonitor } from './runner/liveness-monitor.js';
// Wake sources: how the router learns of mail from other processes (poll on SQLite, LISTEN/NOTIFY on PostgreSQL)
export {
  type NotifyWakeOptions,
  notifyWakeSource,
  type WakeFeed,
  type WakeNoticeLike,
  type WakeSubscribe,
} from './runner/notify-wake-source.js';
export { AgentRegistry, type Router, type RouterOptions, startRouter } from './runner/registry.js';
export { AgentRunner, type AgentSnapshot, DEFAULT_GRACE_MS, NUDGE_TEXT, type RunnerOptions } from './runner/runner.js';
export {
  type Deliver,
  deliverPending,
  type PollOptions,
  pollWakeSource,
  type WakeSource,
} from './runner/wake-source.js';
// Session identity
export {
  type AgentEnvironmentInput,
  agentEnvironment,
  colonySessionId,
  newSessionId,
  SESSION_ID,
} from './session/identity.js';
// Session lifecycle (git side) and session files
export {
  type AgentOutcome,
  AUTO_COMMIT_MESSAGE,
  agentWorktree,
  finishSession,
  listBranchesOf,
  type RecoveryReport,
  recoverSession,
  SessionError,
  type SessionErrorCode,
  type StartedSession,
  type StartSessionOptions,
  type StopReport,
  sessionBranch,
  startSession,
} from './session/lifecycle.js';
export {
  checkSession,
  processAlive,
  readSession,
  readStopRequest,
  removeSessionFiles,
  type SessionCheck,
  type SessionInfo,
  STOP_MODES,
  type StopMode,
  type StopRequest,
  sessionPaths,
  writeAtomic,
  writeSession,
  writeStopRequest,
} from './session/session-files.js';
// Settings (seed 003's format inside $COLONY_HOME/settings.json) and providers made from them
export { type CreateProviderOptions, createModelProvider } from './settings/create-provider.js';
export {
  type InitEntryResult,
  initProjectEntry,
  SettingsInitError,
  STARTER_ENTRY,
} from './settings/init-entry.js';
export {
  BUILTIN_SUPERVISOR_PROMPT,
  CURRENT_VERSION,
  loadRuntimeConfig,
  resolveRuntimeConfig,
  SUPPORTED_VERSIONS,
} from './settings/resolve.js';
export type {
  ConfigErrorCode,
  ConfigProblem,
  ResolvedAgent,
  ResolvedDefaults,
  ResolvedLiveness,
  ResolvedProjectConfig,
  ResolvedProvider,
  RuntimeConfigResult,
} from './settings/resolved.js';
export { RULES, type Rule, type RuleProblem } from './settings/rules.js';
export {
  AGENT_NAME,
  type BudgetConfig,
  EXECUTION_MODES,
  type ExecutionMode,
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionsConfig,
  PROVIDER_TYPES,
  ProjectConfigSchema,
  type RawAgentConfig,
  type RawProjectConfig,
  type RawProviderConfig,
  WASM_CAPABILITIES,
  type WasmCapability,
  type WasmLimitsConfig,
  WasmLimitsConfigSchema,
  type WasmToolConfig,
  WasmToolConfigSchema,
} from './settings/schema.js';
// Skills (seed 003: .claude/skills, .skills, ~/.claude/skills)
export {
  type Discovery,
  discoverSkills,
  resolveSkill,
  type SkillDefinition,
  type SkillSummary,
  summarize,
} from './skills/discover.js';
export {
  DEFAULT_FORK_MAX_TURNS,
  type ForkAgent,
  type ForkOptions,
  forkSystemPrompt,
  runForkedSkill,
} from './skills/fork.js';
export type { ForkHooks } from './skills/fork-hooks.js';
export {
  DEFAULT_FRONTMATTER,
  type ParsedSkillFile,
  parseSkillFile,
  type SkillFrontmatter,
} from './skills/frontmatter.js';
export {
  SKILL_SOURCES,
  type SkillLocation,
  type SkillRoots,
  type SkillSource,
  skillLocations,
  skillPath,
} from './skills/locations.js';
export { type ActiveSkill, SkillScope, withSkillScope } from './skills/scope.js';
export {
  checkSkillName,
  SKILL_NAME,
  SkillError,
  type SkillErrorCode,
  type SkillRefusal,
} from './skills/skill-error.js';
export { SKILL_TOOL, type SkillToolOptions, skillTool } from './skills/skill-tool.js';
export { type SkillArguments, splitArguments, substituteArguments } from './skills/substitute.js';
export { type AllowedToolRule, parseAllowedTools, type ToolFilter, toolFilter } from './skills/tool-filter.js';
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
// Agent tools (confined to the worktree)
export { ConfinementError, confine } from './tools/_confine.js';
export {
  type AgentTools,
  type AgentToolsOptions,
  agentTools,
  BUILTIN_TOOL_NAMES,
  type BuiltinToolName,
} from './tools/agent-tools.js';
export { combineTools } from './tools/combine-tools.js';
// WASM tools (seed 003's sandboxed tools on worker threads)
export { HOST_FUNCTIONS, type HostOptions, type LogEntry } from './wasm/capabilities.js';
export { WASM_ERROR_KINDS, type WasmErrorKind, WasmToolError, wasmErrorText } from './wasm/errors.js';
export { outcomeText, type WasmTools, type WasmToolsOptions, wasmRunOptions, wasmTools } from './wasm/executor.js';
export { runWasm, type WasmOutcome, type WasmRunOptions } from './wasm/host.js';
export { DEFAULT_WASM_LIMITS, resolveWasmLimits, type WasmLimits } from './wasm/limits.js';
