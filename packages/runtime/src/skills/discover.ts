/**
 * @module skills/discover
 * Discovery and resolution over the three locations (seed 003 `discover_skills()` and
 * `resolve()`). A skill is named by its frontmatter `name` when valid, else by its
 * folder (or flat file) name. Resolution walks the locations in priority order and the
 * first that holds the name wins, so discovery and resolution always agree. A file that
 * cannot be read, or a folder whose name is not a valid skill name, is skipped with a
 * warning; broken frontmatter never skips a skill (see frontmatter.ts).
 */
import { type SkillDefinition, scanLocation } from './_scan.js';
import { type SkillRoots, type SkillSource, skillLocations, skillPath } from './locations.js';
import { checkSkillName, refusal, type SkillRefusal } from './skill-error.js';

export type { SkillDefinition };

export interface SkillSummary {
  readonly name: string;
  readonly description: string;
  readonly user_invocable: boolean;
  readonly model_invocable: boolean;
  readonly path: string;
  readonly source: SkillSource;
}

export interface Discovery {
  /** Sorted by name; the highest-priority skill of each name. */
  readonly skills: readonly SkillDefinition[];
  /** Skipped files and folders, besides each skill's own warnings. */
  readonly warnings: readonly string[];
}

export function discoverSkills(roots: SkillRoots): Discovery {
  const found = new Map<string, SkillDefinition>();
  const warnings: string[] = [];
  for (const location of skillLocations(roots)) {
    for (const skill of scanLocation(location, warnings).values()) {
      if (!found.has(skill.name)) found.set(skill.name, skill);
    }
  }
  const skills = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, warnings };
}

export function resolveSkill(roots: SkillRoots, name: string): { ok: true; skill: SkillDefinition } | SkillRefusal {
  const invalid = checkSkillName(name);
  if (invalid) return invalid;
  const searched: string[] = [];
  for (const location of skillLocations(roots)) {
    searched.push(skillPath(location, name));
    const skill = scanLocation(location, []).get(name);
    if (skill) return { ok: true, skill };
  }
  return refusal('not_found', `skill "${name}" not found (searched ${searched.join(', ')})`);
}

export function summarize(skill: SkillDefinition): SkillSummary {
  const f = skill.frontmatter;
  return {
    name: skill.name,
    description: f.description,
    user_invocable: f.user_invocable,
    model_invocable: !f.disable_model_invocation,
    path: skill.path,
    source: skill.source,
  };
}
