/**
 * @module runtime/skills
 * `colony skills list` and `colony skills show`: the skills a runtime agent of the
 * project would see (the project's `.claude/skills` and `.skills`, then the user's
 * `~/.claude/skills`), and one skill resolved and substituted as the `skill` tool
 * would return it. The project is the git repository holding the folder.
 */
import {
  discoverSkills,
  resolveSkill,
  type SkillDefinition,
  SkillError,
  type SkillSummary,
  substituteArguments,
  summarize,
} from '@swarm/runtime';
import { projectRootOf } from './config.js';

export interface SkillListing extends SkillSummary {
  readonly argument_hint: string | null;
  readonly context: string | null;
  readonly warnings: readonly string[];
}

export interface SkillsListResult {
  readonly project_root: string;
  readonly skills: readonly SkillListing[];
  /** Skipped files and folders. */
  readonly warnings: readonly string[];
}

export async function listSkills(options: { cwd: string; userHome?: string }): Promise<SkillsListResult> {
  const project_root = await projectRootOf(options.cwd);
  const found = discoverSkills({ project_root, ...(options.userHome ? { home: options.userHome } : {}) });
  return {
    project_root,
    skills: found.skills.map((s) => ({
      ...summarize(s),
      argument_hint: s.frontmatter.argument_hint,
      context: s.frontmatter.context,
      warnings: s.warnings,
    })),
    warnings: found.warnings,
  };
}

export interface ShownSkill extends SkillDefinition {
  /** The body with the arguments substituted. */
  readonly expanded: string;
  readonly arguments: readonly string[];
}

/** One skill resolved and substituted; a refusal throws a SkillError with its code. */
export async function showSkill(options: {
  cwd: string;
  name: string;
  args: readonly string[];
  userHome?: string;
}): Promise<ShownSkill> {
  const project_root = await projectRootOf(options.cwd);
  const found = resolveSkill({ project_root, ...(options.userHome ? { home: options.userHome } : {}) }, options.name);
  if (!found.ok) throw new SkillError(found.code, found.message);
  return { ...found.skill, expanded: substituteArguments(found.skill.body, options.args), arguments: options.args };
}
