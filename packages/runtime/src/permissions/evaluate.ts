/**
 * @module permissions/evaluate
 * Seed 003's six-step permission evaluation, as one pure function returning the
 * decision, the step and the rule that made it:
 *   1. mode short-circuit: bypass-permissions allows; plan denies bash, write, edit,
 *      notebook_edit;
 *   2. the agent's own rules: deny, then ask, then allow (agent before project,
 *      inventory 1.28 #2);
 *   3-5. the project's deny, ask, allow;
 *   6. the mode's default: default asks; accept-edits allows write/edit/notebook_edit
 *      and asks otherwise; dont-ask and bypass-permissions allow.
 * Within a list the first matching rule (in order) is the one reported. The mode is the
 * agent's `default_mode`, else the project's, else `default`. A rule string that does
 * not parse matches nothing (settings validation reports it).
 */
import type { PermissionMode, PermissionsConfig } from '../settings/schema.js';
import { canonicalTool, parseRule, ruleMatches } from './rule.js';

export type PermissionDecision = 'allow' | 'ask' | 'deny';
export type PermissionStep = 1 | 2 | 3 | 4 | 5 | 6;

export interface PermissionVerdict {
  readonly decision: PermissionDecision;
  readonly step: PermissionStep;
  /** `mode` for steps 1 and 6. */
  readonly source: 'mode' | 'agent' | 'project';
  /** The rule as written, or null when the mode decided. */
  readonly rule: string | null;
  readonly mode: PermissionMode;
  /** One line for the model, the log and the CLI. */
  readonly reason: string;
}

export interface PermissionPolicy {
  readonly project: PermissionsConfig | null;
  readonly agent: PermissionsConfig | null;
}

const WRITE_TOOLS = new Set(['bash', 'write', 'edit', 'notebookedit']);
const EDIT_TOOLS = new Set(['write', 'edit', 'notebookedit']);
const LISTS = ['deny', 'ask', 'allow'] as const;

export function permissionMode(policy: PermissionPolicy): PermissionMode {
  return policy.agent?.default_mode ?? policy.project?.default_mode ?? 'default';
}

export function evaluatePermission(
  policy: PermissionPolicy,
  tool: string,
  input: Record<string, unknown>,
): PermissionVerdict {
  const mode = permissionMode(policy);
  const canonical = canonicalTool(tool);
  const verdict = (
    decision: PermissionDecision,
    step: PermissionStep,
    source: PermissionVerdict['source'],
    rule: string | null,
    reason: string,
  ): PermissionVerdict => ({ decision, step, source, rule, mode, reason });
  if (mode === 'bypass-permissions')
    return verdict('allow', 1, 'mode', null, 'mode bypass-permissions allows every call');
  if (mode === 'plan' && WRITE_TOOLS.has(canonical))
    return verdict('deny', 1, 'mode', null, `mode plan is read-only: ${tool} is denied`);
  if (policy.agent) {
    for (const list of LISTS) {
      const rule = firstMatch(policy.agent[list], tool, input);
      if (rule) return verdict(list, 2, 'agent', rule, `agent ${list} rule ${rule}`);
    }
  }
  for (const [i, list] of LISTS.entries()) {
    const rule = firstMatch(policy.project?.[list], tool, input);
    if (rule) return verdict(list, (3 + i) as PermissionStep, 'project', rule, `project ${list} rule ${rule}`);
  }
  if (mode === 'dont-ask') return verdict('allow', 6, 'mode', null, 'no rule matched; mode dont-ask allows');
  if (mode === 'accept-edits' && EDIT_TOOLS.has(canonical))
    return verdict('allow', 6, 'mode', null, `no rule matched; mode accept-edits allows ${tool}`);
  return verdict('ask', 6, 'mode', null, `no rule matched; mode ${mode} asks`);
}

function firstMatch(rules: readonly string[] | undefined, tool: string, input: Record<string, unknown>): string | null {
  for (const raw of rules ?? []) {
    const rule = parseRule(raw);
    if (rule && ruleMatches(rule, tool, input)) return raw;
  }
  return null;
}
