/**
 * @module skills/_scan
 * Reads the skills of one location: each candidate file parsed (frontmatter problems
 * stay warnings on the skill), named by its frontmatter or its file. Unreadable files
 * and invalid file names are skipped with a warning.
 */
import { type Dirent, existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseSkillFile, type SkillFrontmatter } from './frontmatter.js';
import { type SkillLocation, type SkillSource, skillPath } from './locations.js';
import { SKILL_NAME } from './skill-error.js';

export interface SkillDefinition {
  readonly name: string;
  readonly path: string;
  readonly source: SkillSource;
  readonly frontmatter: SkillFrontmatter;
  /** The body, frontmatter stripped, before argument substitution. */
  readonly body: string;
  /** Non-fatal problems of this file (frontmatter). */
  readonly warnings: readonly string[];
}

/** The skills of one location by name; on a clash, the file whose own name matches wins. */
export function scanLocation(location: SkillLocation, warnings: string[]): Map<string, SkillDefinition> {
  const skills = new Map<string, SkillDefinition>();
  const exact = new Set<string>();
  for (const fileName of candidates(location, warnings)) {
    const path = skillPath(location, fileName);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      warnings.push(`skill ${path} skipped: ${(error as Error).message}`);
      continue;
    }
    const parsed = parseSkillFile(text);
    const name = parsed.frontmatter.name ?? fileName;
    const skill = { name, path, source: location.source, ...parsed };
    if (!skills.has(name) || (fileName === name && !exact.has(name))) skills.set(name, skill);
    if (fileName === name) exact.add(name);
  }
  return skills;
}

/** File names (without `.md` / `SKILL.md`) that look like skills in one location, sorted. */
function candidates(location: SkillLocation, warnings: string[]): string[] {
  if (!existsSync(location.dir)) return [];
  let entries: Dirent[];
  try {
    entries = readdirSync(location.dir, { withFileTypes: true });
  } catch (error) {
    warnings.push(`skill folder ${location.dir} skipped: ${(error as Error).message}`);
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    const name = location.style === 'dir' ? entry.name : entry.name.replace(/\.md$/, '');
    if (location.style === 'flat' && (name === entry.name || entry.isDirectory())) continue;
    if (location.style === 'dir' && !existsSync(skillPath(location, name))) continue;
    if (!SKILL_NAME.test(name)) {
      warnings.push(`skill ${skillPath(location, name)} skipped: its name is not a valid skill name`);
      continue;
    }
    names.push(name);
  }
  return names.sort();
}
