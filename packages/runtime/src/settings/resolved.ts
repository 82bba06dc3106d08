/**
 * @module settings/resolved
 * The resolved ("fully defaulted") configuration types and the loader's outcome value.
 * `null` in a resolved field means "none" (no timeout, no override), never "unset".
 */
import type { SandboxPolicy } from '@swarm/worktree';
import type { HooksConfig } from '../lifecycle-hooks/schema.js';
import type { BudgetConfig, ExecutionMode, PermissionsConfig, RawProjectConfig } from './schema.js';

export type ConfigErrorCode = 'missing_file' | 'parse_error' | 'validation_error' | 'version_mismatch';

export interface ConfigProblem {
  readonly code: ConfigErrorCode;
  /** The field at fault (`agents[1].name`), when there is one. */
  readonly field?: string;
  /** The seed's display text. */
  readonly message: string;
}

export interface ResolvedProvider {
  readonly name: string;
  readonly type: 'anthropic' | 'openai' | 'command' | 'scripted';
  readonly api_key_env: string;
  readonly base_url: string | null;
  readonly max_retries: number | null;
  readonly timeout: number | null;
  readonly models: Readonly<Record<string, string>>;
  readonly native_tools: boolean;
  readonly prompt_cache: boolean;
  readonly preset: 'claude' | 'codex' | 'jsonl' | null;
  readonly argv: readonly string[] | null;
  readonly max_tokens_field: 'max_tokens' | 'max_completion_tokens';
  readonly prompt_on_stdin: boolean;
  readonly script: readonly Record<string, unknown>[];
}

export interface ResolvedLiveness {
  readonly enabled: boolean;
  readonly idle_nudge_after_secs: number | null;
  readonly idle_nudge_interval_secs: number | null;
  readonly max_nudges: number;
  readonly idle_warn_after_secs: number | null;
  readonly stall_timeout_secs: number | null;
  readonly auto_interrupt_stalled: boolean;
}

export interface ResolvedDefaults {
  readonly model: string;
  readonly provider: string;
  /** Seconds; null = no timeout. */
  readonly session_timeout: number | null;
  readonly commit_interval: number;
  readonly max_consecutive_errors: number;
  readonly max_total_errors: number;
  readonly mode: ExecutionMode | null;
  readonly liveness: ResolvedLiveness;
  /** Per agent (an agent's own budget overrides it); null = none. */
  readonly budget: BudgetConfig | null;
  readonly session_budget: BudgetConfig | null;
}

export interface ResolvedAgent {
  readonly name: string;
  /** The prompt text (an `@file` prompt already read). */
  readonly prompt: string;
  /** `inline`, or the file's path relative to the project root. */
  readonly prompt_source: string;
  /** As configured (`sonnet`). */
  readonly model: string;
  /** The id sent to the provider (`claude-sonnet-5-5`). */
  readonly model_id: string;
  readonly provider: string;
  readonly mode: ExecutionMode;
  /** Agent-level permission overrides, or null. */
  readonly permissions: PermissionsConfig | null;
  /** The agent's own budget, or null (then defaults.budget applies). */
  readonly budget: BudgetConfig | null;
}

export interface ResolvedProjectConfig {
  readonly project_root: string;
  readonly version: number;
  readonly providers: Readonly<Record<string, ResolvedProvider>>;
  readonly defaults: ResolvedDefaults;
  readonly agents: readonly ResolvedAgent[];
  readonly supervisor: { readonly prompt: string; readonly model: string; readonly model_id: string };
  readonly permissions: PermissionsConfig | null;
  /** The OS sandbox of agent `bash` commands (mode auto unless set). */
  readonly sandbox: SandboxPolicy;
  /** Lifecycle hooks by event key, or null. */
  readonly hooks: HooksConfig | null;
  readonly raw: RawProjectConfig;
}

export interface RuntimeConfigResult {
  readonly config: ResolvedProjectConfig | null;
  readonly errors: readonly ConfigProblem[];
  readonly warnings: readonly string[];
}
