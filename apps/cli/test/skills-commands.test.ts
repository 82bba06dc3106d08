/**
 * `colony skills list|show` as real processes (the built CLI): skills from a temporary
 * project and a temporary $HOME, in all three locations.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scene } from './_scene';

describe('colony skills list and show', () => {
  const s = scene();
  s.put(
    join(s.project, '.claude/skills/cmp/SKILL.md'),
    '---\ndescription: Compare two files\nargument-hint: "<a> <b>"\n---\n$0 $1 $ARGUMENTS $ARGUMENTS[1] $ARGUMENTS1 $9\n',
  );
  s.put(join(s.project, '.skills/cmp.md'), 'shadowed by .claude/skills\n');
  s.put(join(s.project, '.skills/flat.md'), '---\ncontext: fork\nuser-invocable: [oops\n---\nflat body\n');
  s.put(
    join(s.home, '.claude/skills/global/SKILL.md'),
    '---\ndescription: From home\ndisable-model-invocation: true\n---\nglobal $0\n',
  );

  it('lists every location, the project first, with --json', () => {
    const r = s.colony(['skills', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.project_root).toBe(s.project);
    expect(out.skills.map((k: { name: string; source: string; path: string }) => [k.name, k.source, k.path])).toEqual([
      ['cmp', 'project', join(s.project, '.claude/skills/cmp/SKILL.md')],
      ['flat', 'project-flat', join(s.project, '.skills/flat.md')],
      ['global', 'user', join(s.home, '.claude/skills/global/SKILL.md')],
    ]);
    expect(out.skills[1].warnings).toEqual([expect.stringContaining('not valid YAML')]);
    expect(out.skills[2]).toMatchObject({ description: 'From home', model_invocable: false });
  });

  it('prints one line per skill, and frontmatter warnings on stderr', () => {
    const r = s.colony(['skills', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      `cmp <a> <b>  Compare two files  (project: ${join(s.project, '.claude/skills/cmp/SKILL.md')})`,
    );
    expect(r.stdout).toContain('global  From home  [user only]');
    expect(r.stderr).toContain(`colony: warning: ${join(s.project, '.skills/flat.md')}: frontmatter is not valid YAML`);
  });

  it('shows the resolved file, its source and the substituted body', () => {
    const r = s.colony(['skills', 'show', 'cmp', 'a', 'b']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `skill cmp (project: ${join(s.project, '.claude/skills/cmp/SKILL.md')})\ndescription: Compare two files\nargument-hint: <a> <b>\n\na b a b b b \n`,
    );
    const json = s.colony(['skills', 'show', 'global', '--json', '--', '$1', 'x']).json();
    expect(json).toMatchObject({ name: 'global', source: 'user', expanded: 'global $1\n', arguments: ['$1', 'x'] });
  });

  it('refuses a traversal name and a missing skill with their codes (exit 1)', () => {
    const bad = s.colony(['skills', 'show', '../x']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'colony: invalid_name: invalid skill name "../x": only letters, digits, "_", ":" and "-" are allowed\n',
    );
    const missing = s.colony(['skills', 'show', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^colony: not_found: skill "nope" not found \(searched /);
  });
});
