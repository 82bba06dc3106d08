/**
 * @module skills/skill-tool
 * The `skill` tool the model calls (`{ name, arguments }`). The skill is resolved at
 * call time (the three locations, first match wins) and its body substituted; an inline
 * skill's result is that body, and its `allowed-tools` restrict the agent through the
 * scope; a `context: fork` skill runs as a sub-agent and its answer is the result.
 * Refusals (invalid name, not found, `disable-model-invocation`, unknown agent) are
 * error results opening with their code. The description lists the skills the model
 * may invoke, as discovered when the tools were built.
 */
import type { ToolSchema } from '@swarm/providers';
import { z } from 'zod';
import type { ToolResult } from '../loop/tool-caller.js';
import type { AgentTools } from '../tools/agent-tools.js';
import { discoverSkills, resolveSkill } from './discover.js';
import { type ForkOptions, runForkedSkill } from './fork.js';
import type { SkillRoots } from './locations.js';
import type { SkillScope } from './scope.js';
import type { SkillRefusal } from './skill-error.js';
import { substituteArguments } from './substitute.js';

export const SKILL_TOOL = 'skill';

const SkillInput = z.strictObject({
  name: z.string().min(1).describe('The skill name'),
  arguments: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('Its arguments: one string (split at spaces for $0..$9) or a list'),
});

export interface SkillToolOptions {
  readonly roots: SkillRoots;
  /** Where an inline skill's `allowed-tools` take effect (none: not enforced inline). */
  readonly scope?: SkillScope;
  /** How forks run, read at call time (the agent's whole tool set exists only later). */
  readonly fork?: () => ForkOptions;
}

export function skillTool(options: SkillToolOptions): AgentTools {
  const schema: ToolSchema = {
    name: SKILL_TOOL,
    description: skillToolDescription(options.roots),
    input_schema: z.toJSONSchema(SkillInput) as Record<string, unknown>,
  };
  return { schemas: [schema], executor: { execute: (call, { signal }) => runSkill(options, call.input, signal) } };
}

async function runSkill(options: SkillToolOptions, input: unknown, signal: AbortSignal): Promise<ToolResult> {
  const parsed = SkillInput.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
    return { content: `invalid input for skill: ${issues}`, is_error: true };
  }
  const found = resolveSkill(options.roots, parsed.data.name);
  if (!found.ok) return refused(found);
  const { skill } = found;
  const f = skill.frontmatter;
  if (f.disable_model_invocation) {
    return refused({
      ok: false,
      code: 'model_invocation_disabled',
      message: `skill "${skill.name}" can only be invoked by the user (disable-model-invocation: true)`,
    });
  }
  const body = substituteArguments(skill.body, parsed.data.arguments ?? '');
  if (f.context !== 'fork') {
    options.scope?.enter(skill.name, f.allowed_tools);
    return { content: body };
  }
  if (!options.fork) return { content: `skill "${skill.name}" runs as a sub-agent, unavailable here`, is_error: true };
  const result = await runForkedSkill(skill, body, options.fork(), signal);
  return 'ok' in result ? refused(result) : result;
}

function refused(r: SkillRefusal): ToolResult {
  return { content: `${r.code}: ${r.message}`, is_error: true };
}

function skillToolDescription(roots: SkillRoots): string {
  const listed = discoverSkills(roots)
    .skills.filter((s) => !s.frontmatter.disable_model_invocation)
    .slice(0, 50)
    .map((s) => {
      const hint = s.frontmatter.argument_hint ? ` ${s.frontmatter.argument_hint}` : '';
      return `${s.name}${hint}${s.frontmatter.description ? `: ${s.frontmatter.description}` : ''}`;
    });
  const base =
    'Run a skill (reusable instructions) by name with its arguments; an inline skill returns its instructions, a fork skill runs a sub-agent and returns its answer.';
  return listed.length ? `${base} Skills: ${listed.join('; ')}.` : `${base} No skills are installed.`;
}
