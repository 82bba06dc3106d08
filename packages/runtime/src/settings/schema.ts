/**
 * @module settings/schema
 * Seed 003's configuration as written (the "raw" types), as zod schemas: one project
 * entry (ProjectConfig) keyed by the project's absolute path inside
 * `$COLONY_HOME/settings.json`, beside `version` and colony's own keys. Objects are
 * strict, so a misspelt key is an error naming the field. Defaults are applied by
 * resolve.ts (the cascade needs the raw absence), not here.
 */
import { SandboxConfigSchema } from '@swarm/worktree';
import { z } from 'zod';
import { HooksConfigSchema } from '../lifecycle-hooks/schema.js';
import { McpServersSchema } from '../mcp/config.js';

export const AGENT_NAME = /^[a-z][a-z0-9-]*$/;
export const WASM_TOOL_NAME = /^[a-z][a-z0-9_-]*$/;
export const PROVIDER_TYPES = ['anthropic', 'openai', 'command', 'scripted'] as const;
/** Execution modes (`mode`). */
export const EXECUTION_MODES = ['code', 'delegate'] as const;
/** Permission modes (`permissions.default_mode`); accepted in `mode` as a deprecated alias. */
export const PERMISSION_MODES = ['default', 'accept-edits', 'plan', 'dont-ask', 'bypass-permissions'] as const;
export const WASM_CAPABILITIES = ['Logging', 'WorkspaceRead', 'HttpRequest', 'ToolInvoke', 'SecretCheck'] as const;

const seconds = z.number().int().positive();
const count = z.number().int().min(0);

export const ProviderConfigSchema = z.strictObject({
  /** `anthropic` (the seed's only type), `openai`, `command`, `scripted`. */
  type: z.string(),
  api_key_env: z.string().min(1).optional(),
  base_url: z.string().min(1).nullable().optional(),
  max_retries: count.nullable().optional(),
  timeout: seconds.nullable().optional(),
  /** colony addition: alias -> model id overrides (`{ "sonnet": "<id>" }`). */
  models: z.record(z.string(), z.string().min(1)).optional(),
  /** anthropic: prompt caching (default true). */
  prompt_cache: z.boolean().optional(),
  /** openai: false for models without function calling (seed-000 envelope in text). */
  native_tools: z.boolean().optional(),
  /** openai: `max_completion_tokens` for OpenAI's newer models (default `max_tokens`). */
  max_tokens_field: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
  /** command: `claude`, `codex` or `jsonl`, an argv overriding the preset's, the prompt on stdin. */
  preset: z.enum(['claude', 'codex', 'jsonl']).optional(),
  argv: z.array(z.string()).min(1).optional(),
  prompt_on_stdin: z.boolean().optional(),
  /** scripted: the turns to replay. */
  script: z.array(z.record(z.string(), z.unknown())).optional(),
});

export const PermissionsConfigSchema = z.strictObject({
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  default_mode: z.enum(PERMISSION_MODES).nullable().optional(),
  /** colony addition: how long an `ask` waits for the operator's answer before denying (default 60). */
  ask_timeout_secs: z.number().positive().nullable().optional(),
});

/** colony addition: a spending limit from provider usage (per agent, or per session). */
export const BudgetConfigSchema = z.strictObject({
  max_tokens: z.number().int().positive().nullable().optional(),
  max_usd: z.number().positive().nullable().optional(),
});

export const AgentConfigSchema = z.strictObject({
  name: z.string(),
  prompt: z.string().min(1, 'required: the prompt text or @path/to/file'),
  model: z.string().min(1).optional(),
  provider: z.string().min(1).optional(),
  permissions: PermissionsConfigSchema.nullable().optional(),
  /** Legacy: `true` means mode `delegate` when no mode is set. */
  delegate_mode: z.boolean().optional(),
  mode: z.string().min(1).nullable().optional(),
  budget: BudgetConfigSchema.nullable().optional(),
});

export const SupervisorConfigSchema = z.strictObject({
  prompt: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
});

export const LivenessConfigSchema = z.strictObject({
  enabled: z.boolean().optional(),
  idle_nudge_after_secs: seconds.nullable().optional(),
  idle_nudge_interval_secs: seconds.nullable().optional(),
  max_nudges: count.optional(),
  idle_warn_after_secs: seconds.nullable().optional(),
  stall_timeout_secs: seconds.nullable().optional(),
  auto_interrupt_stalled: z.boolean().optional(),
});

export const DefaultsConfigSchema = z.strictObject({
  model: z.string().min(1).optional(),
  provider: z.string().min(1).optional(),
  session_timeout: seconds.nullable().optional(),
  commit_interval: seconds.optional(),
  max_consecutive_errors: z.number().int().min(1).optional(),
  max_total_errors: z.number().int().min(1).optional(),
  mode: z.string().min(1).nullable().optional(),
  liveness: LivenessConfigSchema.optional(),
  /** Each agent's budget unless it sets its own. */
  budget: BudgetConfigSchema.nullable().optional(),
  /** The whole session's budget, all agents together. */
  session_budget: BudgetConfigSchema.nullable().optional(),
});

/** Seed 003's WasmLimitsConfig; the defaults and what Node can enforce are in wasm/limits.ts. */
export const WasmLimitsConfigSchema = z.strictObject({
  max_memory_bytes: z
    .number()
    .int()
    .min(65_536)
    .max(512 * 1024 * 1024, 'at most 512 MiB')
    .optional(),
  /** Accepted for the seed's sake, not enforced: V8 has no fuel metering (docs/sandbox.md). */
  fuel_limit: z.number().int().positive().optional(),
  execution_timeout_secs: z.number().int().min(1).max(300, 'at most 300 seconds').optional(),
  max_log_entries: count.optional(),
  max_http_requests: count.optional(),
  max_tool_invocations: count.optional(),
  max_file_read_bytes: count.optional(),
});

/** Seed 003's WasmToolConfig (a core module with colony's JSON ABI, not a component: docs/sandbox.md). */
export const WasmToolConfigSchema = z.strictObject({
  name: z.string(),
  path: z.string(),
  /** Case-sensitive names from WASM_CAPABILITIES (checked by a rule, so the error names the field). */
  capabilities: z.array(z.string()).optional(),
  limits: WasmLimitsConfigSchema.nullable().optional(),
  secrets: z.array(z.string().min(1)).optional(),
  workspace_prefixes: z.array(z.string().min(1)).optional(),
  endpoint_allowlist: z.array(z.string().min(1)).optional(),
  tool_aliases: z.record(z.string(), z.string().min(1)).optional(),
});

export const ProjectConfigSchema = z.strictObject({
  agents: z.array(AgentConfigSchema),
  supervisor: SupervisorConfigSchema.nullable().optional(),
  defaults: DefaultsConfigSchema.nullable().optional(),
  providers: z.record(z.string(), ProviderConfigSchema).optional(),
  permissions: PermissionsConfigSchema.nullable().optional(),
  /** Lifecycle hooks: per event key, matcher groups of command hooks (lifecycle-hooks/schema.ts). */
  hooks: HooksConfigSchema.nullable().optional(),
  /** Seed 003 McpServerConfig per server name (mcp/config.ts). */
  mcpServers: McpServersSchema.nullable().optional(),
  wasm_tools: z.array(WasmToolConfigSchema).nullable().optional(),
  /** colony addition: the OS sandbox of agent `bash` commands (default mode auto; docs/sandbox.md). */
  sandbox: SandboxConfigSchema.nullable().optional(),
  sub_agent_defaults: z.record(z.string(), z.unknown()).nullable().optional(),
});

export type RawProviderConfig = z.infer<typeof ProviderConfigSchema>;
export type RawAgentConfig = z.infer<typeof AgentConfigSchema>;
export type RawProjectConfig = z.infer<typeof ProjectConfigSchema>;
export type PermissionsConfig = z.infer<typeof PermissionsConfigSchema>;
export type BudgetConfig = z.infer<typeof BudgetConfigSchema>;
export type WasmToolConfig = z.infer<typeof WasmToolConfigSchema>;
export type WasmLimitsConfig = z.infer<typeof WasmLimitsConfigSchema>;
export type WasmCapability = (typeof WASM_CAPABILITIES)[number];
export type ExecutionMode = (typeof EXECUTION_MODES)[number];
export type PermissionMode = (typeof PERMISSION_MODES)[number];
