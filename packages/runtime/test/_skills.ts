/** Skill test fixtures: a temporary project and a temporary home, and writers for the three locations. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function skillDirs() {
  const base = mkdtempSync(join(tmpdir(), 'colony-skills-'));
  const project = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  const put = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return {
    base,
    project,
    home,
    roots: { project_root: project, home },
    /** `<project>/.claude/skills/<name>/SKILL.md` */
    projectSkill: (name: string, text: string) => put(join(project, '.claude', 'skills', name, 'SKILL.md'), text),
    /** `<project>/.skills/<name>.md` */
    flatSkill: (name: string, text: string) => put(join(project, '.skills', `${name}.md`), text),
    /** `~/.claude/skills/<name>/SKILL.md` */
    userSkill: (name: string, text: string) => put(join(home, '.claude', 'skills', name, 'SKILL.md'), text),
  };
}

export function skillText(frontmatter: string, body: string): string {
  return `---\n${frontmatter}\n---\n\n${body}`;
}
