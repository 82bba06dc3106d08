/**
 * @module settings/resolve
 * Seed 003's settings inside colony's `$COLONY_HOME/settings.json`: `"version": 2` and
 * one entry per project keyed by its canonical absolute path, beside colony's own keys
 * (search, bridge, foraging, rateLimits), which are left alone. Loading gives a value,
 * `{ config, errors, warnings }`: `config` is the resolved entry (every default filled,
 * `@file` prompts read) or null when anything is wrong; each error carries the seed's
 * display text (`config validation failed: <field>: <reason>`) and names its field.
 * Only the runtime's own commands treat these errors as fatal; colony's other commands
 * never read the runtime keys.
 *
 * Cascade: model = agent.model ?? defaults.model ?? "sonnet"; provider = agent.provider
 * ?? defaults.provider ?? "default"; mode = agent.mode ?? defaults.mode ??
 * (delegate_mode ? "delegate" : "code"). No providers block = an implicit "default"
 * Anthropic provider.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { resolveModel } from '@swarm/providers';
import { sandboxPolicy } from '@swarm/worktree';
import type { z } from 'zod';
import type {
  ConfigProblem,
  ResolvedAgent,
  ResolvedDefaults,
  ResolvedProjectConfig,
  ResolvedProvider,
  RuntimeConfigResult,
} from './resolved.js';
import { RULES } from './rules.js';
import {
  EXECUTION_MODES,
  type ExecutionMode,
  ProjectConfigSchema,
  type RawProjectConfig,
  type RawProviderConfig,
} from './schema.js';

export const SUPPORTED_VERSIONS = [1, 2] as const;
export const CURRENT_VERSION = 2;
/** colony's own top-level keys (packages/core/src/settings.ts). */
const COLONY_KEYS = new Set(['search', 'bridge', 'foraging', 'roots', 'arbiter', 'rateLimits']);
export const BUILTIN_SUPERVISOR_PROMPT =
  'You are the supervisor. When the agents finish, review their branches, resolve what conflicts, and merge their work back so the result builds and its tests pass.';

/** Reads `<home>/settings.json` and resolves the entry of `projectRoot`. */
export function loadRuntimeConfig(options: { home: string; projectRoot: string }): RuntimeConfigResult {
  const path = join(options.home, 'settings.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return failed({ code: 'missing_file', message: `config file not found at ${path}` });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return failed({ code: 'parse_error', message: `failed to parse config: ${(error as Error).message}` });
  }
  return resolveRuntimeConfig(json, { projectRoot: options.projectRoot, settingsPath: path });
}

/** Resolves the project entry of already-parsed settings JSON. */
export function resolveRuntimeConfig(
  json: unknown,
  options: { projectRoot: string; settingsPath: string },
): RuntimeConfigResult {
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    return failed({
      code: 'parse_error',
      message: 'failed to parse config: the settings file must hold a JSON object',
    });
  }
  const settings = json as Record<string, unknown>;
  const root = canonical(options.projectRoot);
  const warnings: string[] = [];
  let entry: unknown;
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'version' || COLONY_KEYS.has(key)) continue;
    if (!isAbsolute(key)) {
      warnings.push(
        `settings: unknown key ${JSON.stringify(key)} ignored (project entries are keyed by absolute path)`,
      );
    } else if (canonical(key) === root) {
      entry = value;
    }
  }
  if (entry === undefined) {
    return failed({
      code: 'missing_file',
      message: `config file not found at ${options.settingsPath} (no entry for ${root})`,
    });
  }
  const version = settings.version;
  if (version === undefined) return failed(validation('version', 'required (1 or 2)'));
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return failed(validation('version', `must be 1 or 2, got ${JSON.stringify(version)}`));
  }
  if (version > CURRENT_VERSION) {
    return failed({
      code: 'version_mismatch',
      field: 'version',
      message: `config version ${version} is not supported (expected ${CURRENT_VERSION})`,
    });
  }
  const parsed = ProjectConfigSchema.safeParse(entry);
  if (!parsed.success) return { config: null, errors: parsed.error.issues.map(issueProblem), warnings };
  const project = parsed.data;
  const providers = resolveProviders(project.providers);
  const errors: ConfigProblem[] = [];
  for (const rule of RULES) {
    for (const problem of rule(project, new Set(Object.keys(providers)))) {
      if (problem.severity === 'warning') warnings.push(`${problem.field}: ${problem.message}`);
      else if (!problem.verbatim) errors.push(validation(problem.field, problem.message));
      else
        errors.push({
          code: 'validation_error',
          field: problem.field,
          message: `config validation failed: ${problem.message}`,
        });
    }
  }
  if (errors.length > 0) return { config: null, errors, warnings };
  const defaults = resolveDefaults(project);
  const agents: ResolvedAgent[] = [];
  for (const [i, agent] of project.agents.entries()) {
    const prompt = loadPrompt(root, agent.prompt, `agents[${i}].prompt`);
    if ('error' in prompt) {
      errors.push(prompt.error);
      continue;
    }
    const model = agent.model ?? defaults.model;
    const provider = agent.provider ?? defaults.provider;
    agents.push({
      name: agent.name,
      prompt: prompt.text,
      prompt_source: prompt.source,
      model,
      model_id: resolveModel(model, providers[provider]?.models),
      provider,
      mode: executionMode(agent.mode) ?? defaults.mode ?? (agent.delegate_mode ? 'delegate' : 'code'),
      permissions: agent.permissions ?? null,
      budget: agent.budget ?? null,
    });
  }
  let supervisorPrompt = BUILTIN_SUPERVISOR_PROMPT;
  if (project.supervisor?.prompt) {
    const loaded = loadPrompt(root, project.supervisor.prompt, 'supervisor.prompt');
    if ('error' in loaded) errors.push(loaded.error);
    else supervisorPrompt = loaded.text;
  }
  if (errors.length > 0) return { config: null, errors, warnings };
  const supervisorModel = project.supervisor?.model ?? defaults.model;
  const config: ResolvedProjectConfig = {
    project_root: root,
    version,
    providers,
    defaults,
    agents,
    supervisor: {
      prompt: supervisorPrompt,
      model: supervisorModel,
      model_id: resolveModel(supervisorModel, providers[defaults.provider]?.models),
    },
    permissions: project.permissions ?? null,
    sandbox: sandboxPolicy(project.sandbox, 'auto'),
    hooks: project.hooks ?? null,
    raw: project,
  };
  return { config, errors: [], warnings };
}

function failed(problem: ConfigProblem): RuntimeConfigResult {
  return { config: null, errors: [problem], warnings: [] };
}

function validation(field: string, reason: string): ConfigProblem {
  return { code: 'validation_error', field, message: `config validation failed: ${field}: ${reason}` };
}

function issueProblem(issue: z.core.$ZodIssue): ConfigProblem {
  const field = issue.path.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)),
    '',
  );
  return validation(field || '(project entry)', issue.message);
}

/** The realpath when the path exists, else the normalised absolute path. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function executionMode(mode: string | null | undefined): ExecutionMode | null {
  return mode && (EXECUTION_MODES as readonly string[]).includes(mode) ? (mode as ExecutionMode) : null;
}

function resolveProviders(
  raw: Readonly<Record<string, RawProviderConfig>> | undefined,
): Record<string, ResolvedProvider> {
  const implicit: Array<[string, RawProviderConfig]> = [['default', { type: 'anthropic' }]];
  const entries = raw && Object.keys(raw).length > 0 ? Object.entries(raw) : implicit;
  return Object.fromEntries(
    entries.map(([name, p]) => [
      name,
      {
        name,
        type: p.type as ResolvedProvider['type'],
        api_key_env: p.api_key_env ?? (p.type === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'),
        base_url: p.base_url ?? null,
        max_retries: p.max_retries ?? null,
        timeout: p.timeout ?? null,
        models: p.models ?? {},
        native_tools: p.native_tools ?? true,
        prompt_cache: p.prompt_cache ?? true,
        preset: p.preset ?? null,
        argv: p.argv ?? null,
        max_tokens_field: p.max_tokens_field ?? 'max_tokens',
        prompt_on_stdin: p.prompt_on_stdin ?? false,
        script: p.script ?? [],
      },
    ]),
  );
}

function resolveDefaults(project: RawProjectConfig): ResolvedDefaults {
  const d = project.defaults ?? {};
  const l = d.liveness ?? {};
  return {
    model: d.model ?? 'sonnet',
    provider: d.provider ?? 'default',
    session_timeout: d.session_timeout ?? null,
    commit_interval: d.commit_interval ?? 300,
    max_consecutive_errors: d.max_consecutive_errors ?? 5,
    max_total_errors: d.max_total_errors ?? 20,
    mode: executionMode(d.mode),
    budget: d.budget ?? null,
    session_budget: d.session_budget ?? null,
    liveness: {
      enabled: l.enabled ?? true,
      idle_nudge_after_secs: l.idle_nudge_after_secs === undefined ? 120 : l.idle_nudge_after_secs,
      idle_nudge_interval_secs: l.idle_nudge_interval_secs === undefined ? 300 : l.idle_nudge_interval_secs,
      max_nudges: l.max_nudges ?? 3,
      idle_warn_after_secs: l.idle_warn_after_secs === undefined ? 600 : l.idle_warn_after_secs,
      stall_timeout_secs: l.stall_timeout_secs === undefined ? 900 : l.stall_timeout_secs,
      auto_interrupt_stalled: l.auto_interrupt_stalled ?? false,
    },
  };
}

/** `@path` = a file relative to the project root, which it may not leave; anything else is the text. */
function loadPrompt(
  root: string,
  prompt: string,
  field: string,
): { text: string; source: string } | { error: ConfigProblem } {
  if (!prompt.startsWith('@')) return { text: prompt, source: 'inline' };
  const rel = prompt.slice(1).trim();
  const target = resolve(root, rel);
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    return { error: validation(field, `prompt file not found: ${rel}`) };
  }
  const inside = relative(root, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    return { error: validation(field, `prompt file ${rel} is outside the project root`) };
  }
  try {
    return { text: readFileSync(real, 'utf8'), source: inside };
  } catch (error) {
    return { error: validation(field, `cannot read prompt file ${rel}: ${(error as Error).message}`) };
  }
}
