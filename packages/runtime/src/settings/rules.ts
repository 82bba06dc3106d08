/**
 * @module settings/rules
 * Seed 003's validation rules 2-7 as small named rules over a parsed project entry
 * (rule 1, the version, is checked before parsing). Each returns problems as values,
 * the field named first; the seed's own sentences are kept where it gives one.
 */
import { parseRule } from '../permissions/rule.js';
import {
  AGENT_NAME,
  EXECUTION_MODES,
  PERMISSION_MODES,
  type PermissionsConfig,
  PROVIDER_TYPES,
  type RawProjectConfig,
  WASM_CAPABILITIES,
  WASM_TOOL_NAME,
} from './schema.js';

export interface RuleProblem {
  readonly field: string;
  readonly message: string;
  readonly severity: 'error' | 'warning';
  /** The seed's sentence, shown without the field prefix (it names the field itself). */
  readonly verbatim?: boolean;
}

export type Rule = (project: RawProjectConfig, providers: ReadonlySet<string>) => RuleProblem[];

const error = (field: string, message: string): RuleProblem => ({ field, message, severity: 'error' });
const warning = (field: string, message: string): RuleProblem => ({ field, message, severity: 'warning' });

/** Rule 2. */
export const atLeastOneAgent: Rule = (project) =>
  project.agents.length === 0 ? [{ ...error('agents', 'agents list cannot be empty'), verbatim: true }] : [];

/** Rule 3. */
export const agentNames: Rule = (project) => {
  const problems: RuleProblem[] = [];
  const seen = new Set<string>();
  for (const [i, agent] of project.agents.entries()) {
    if (!AGENT_NAME.test(agent.name)) {
      problems.push(error(`agents[${i}].name`, `agent name ${JSON.stringify(agent.name)} must match [a-z][a-z0-9-]*`));
    } else if (agent.name === 'supervisor' || agent.name === 'operator') {
      problems.push(error(`agents[${i}].name`, `agent name ${JSON.stringify(agent.name)} is reserved`));
    }
    if (seen.has(agent.name)) {
      const message = `agent names must be unique (duplicate: ${agent.name})`;
      problems.push({ ...error(`agents[${i}].name`, message), verbatim: true });
    }
    seen.add(agent.name);
  }
  return problems;
};

/** Rule 4: every agent.provider and defaults.provider names a defined provider. */
export const providerReferences: Rule = (project, providers) => {
  const problems: RuleProblem[] = [];
  const check = (field: string, name: string | undefined) => {
    if (name !== undefined && !providers.has(name)) {
      const known = [...providers].sort().join(', ') || 'none';
      problems.push(error(field, `provider ${JSON.stringify(name)} is not defined (defined: ${known})`));
    }
  };
  check('defaults.provider', project.defaults?.provider);
  for (const [i, agent] of project.agents.entries()) {
    check(`agents[${i}].provider`, agent.provider ?? project.defaults?.provider ?? 'default');
  }
  return problems;
};

/** Rule 5 (and colony's kinds): a provider type is not empty and is one we have. */
export const providerTypes: Rule = (project) =>
  Object.entries(project.providers ?? {}).flatMap(([name, provider]) => {
    if (provider.type.trim() === '') return [error(`providers.${name}.type`, 'provider type cannot be empty')];
    if (!(PROVIDER_TYPES as readonly string[]).includes(provider.type)) {
      return [
        error(
          `providers.${name}.type`,
          `unknown provider type ${JSON.stringify(provider.type)} (one of ${PROVIDER_TYPES.join(', ')})`,
        ),
      ];
    }
    if (provider.type === 'command' && !provider.preset && !provider.argv) {
      return [error(`providers.${name}.preset`, 'a command provider needs a preset (claude, codex, jsonl) or an argv')];
    }
    return [];
  });

/** Rules 6 and 7. */
export const wasmTools: Rule = (project) => {
  const problems: RuleProblem[] = [];
  const seen = new Set<string>();
  for (const [i, tool] of (project.wasm_tools ?? []).entries()) {
    if (!WASM_TOOL_NAME.test(tool.name)) {
      problems.push(
        error(`wasm_tools[${i}].name`, `wasm tool name ${JSON.stringify(tool.name)} must match [a-z][a-z0-9_-]*`),
      );
    }
    if (seen.has(tool.name))
      problems.push(error(`wasm_tools[${i}].name`, `wasm tool names must be unique (duplicate: ${tool.name})`));
    seen.add(tool.name);
    if (tool.path.trim() === '') problems.push(error(`wasm_tools[${i}].path`, 'wasm tool path cannot be empty'));
    for (const capability of tool.capabilities ?? []) {
      if (!(WASM_CAPABILITIES as readonly string[]).includes(capability)) {
        problems.push(
          error(
            `wasm_tools[${i}].capabilities`,
            `unknown capability ${JSON.stringify(capability)} (one of ${WASM_CAPABILITIES.join(', ')})`,
          ),
        );
      }
    }
  }
  return problems;
};

/** `mode` is the execution mode; a permission-mode name there is a deprecated alias (inventory 1.28 #5). */
export const modes: Rule = (project) => {
  const problems: RuleProblem[] = [];
  const check = (field: string, mode: string | null | undefined) => {
    if (mode == null || (EXECUTION_MODES as readonly string[]).includes(mode)) return;
    if ((PERMISSION_MODES as readonly string[]).includes(mode)) {
      problems.push(
        warning(
          field,
          `${JSON.stringify(mode)} is a permission mode; set permissions.default_mode instead (mode "code" used; applied as the agent's permission mode)`,
        ),
      );
    } else {
      problems.push(error(field, `unknown mode ${JSON.stringify(mode)} (one of ${EXECUTION_MODES.join(', ')})`));
    }
  };
  check('defaults.mode', project.defaults?.mode);
  for (const [i, agent] of project.agents.entries()) check(`agents[${i}].mode`, agent.mode);
  return problems;
};

/** Every permission rule string is `Tool` or `Tool(specifier)` (project and agent level). */
export const permissionRules: Rule = (project) => {
  const problems: RuleProblem[] = [];
  const check = (field: string, set: PermissionsConfig | null | undefined) => {
    for (const list of ['allow', 'ask', 'deny'] as const) {
      for (const [i, raw] of (set?.[list] ?? []).entries()) {
        if (!parseRule(raw))
          problems.push(
            error(`${field}.${list}[${i}]`, `invalid permission rule ${JSON.stringify(raw)} (Tool or Tool(specifier))`),
          );
      }
    }
  };
  check('permissions', project.permissions);
  for (const [i, agent] of project.agents.entries()) check(`agents[${i}].permissions`, agent.permissions);
  return problems;
};

/** Keys parsed now but acted on by the next work package: say so rather than ignore them silently. */
export const notYetActedOn: Rule = (project) => {
  const problems: RuleProblem[] = [];
  const pending = {
    mcpServers: project.mcpServers,
    sub_agent_defaults: project.sub_agent_defaults,
  };
  for (const [key, value] of Object.entries(pending)) {
    if (value && Object.keys(value).length > 0)
      problems.push(warning(key, 'parsed but not acted on yet by this colony version'));
  }
  for (const [i, tool] of (project.wasm_tools ?? []).entries()) {
    if (tool.limits?.fuel_limit !== undefined)
      problems.push(
        warning(
          `wasm_tools[${i}].limits.fuel_limit`,
          'not enforced: V8 has no fuel metering; execution_timeout_secs bounds the run',
        ),
      );
  }
  return problems;
};

export const RULES: readonly Rule[] = [
  atLeastOneAgent,
  agentNames,
  providerReferences,
  providerTypes,
  wasmTools,
  modes,
  permissionRules,
  notYetActedOn,
];
