/**
 * @module skills/locations
 * Where skills live, in seed 003's priority order (Claude Code's layout): the
 * project's `.claude/skills/<name>/SKILL.md`, the project's flat `.skills/<name>.md`,
 * then the user's `~/.claude/skills/<name>/SKILL.md`. The user's home comes from the
 * caller or `os.homedir()` (which reads $HOME), so tests point it at a temporary folder.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SKILL_SOURCES = ['project', 'project-flat', 'user'] as const;
export type SkillSource = (typeof SKILL_SOURCES)[number];

export interface SkillLocation {
  readonly source: SkillSource;
  readonly dir: string;
  /** `dir`: `<dir>/<name>/SKILL.md`; `flat`: `<dir>/<name>.md`. */
  readonly style: 'dir' | 'flat';
}

export interface SkillRoots {
  readonly project_root: string;
  /** The user's home (default `os.homedir()`). */
  readonly home?: string;
}

export function skillLocations(roots: SkillRoots): SkillLocation[] {
  const home = roots.home ?? homedir();
  return [
    { source: 'project', dir: join(roots.project_root, '.claude', 'skills'), style: 'dir' },
    { source: 'project-flat', dir: join(roots.project_root, '.skills'), style: 'flat' },
    { source: 'user', dir: join(home, '.claude', 'skills'), style: 'dir' },
  ];
}

/** Where a skill named `name` would be in `location`. */
export function skillPath(location: SkillLocation, name: string): string {
  return location.style === 'dir' ? join(location.dir, name, 'SKILL.md') : join(location.dir, `${name}.md`);
}
