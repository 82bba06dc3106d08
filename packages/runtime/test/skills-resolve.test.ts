import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { discoverSkills, resolveSkill, summarize } from '../src/index.js';
import { skillDirs, skillText } from './_skills.js';

describe('skill resolution over the three locations', () => {
  it('prefers .claude/skills, then .skills, then ~/.claude/skills (first match wins)', () => {
    const d = skillDirs();
    const one = d.projectSkill('cmp', skillText('description: project dir', 'one'));
    const two = d.flatSkill('cmp', skillText('description: project flat', 'two'));
    const three = d.userSkill('cmp', skillText('description: user', 'three'));
    const first = resolveSkill(d.roots, 'cmp');
    expect(first).toMatchObject({ ok: true, skill: { path: one, source: 'project', body: 'one' } });
    expect(discoverSkills(d.roots).skills.map((s) => s.path)).toEqual([one]);
    d.projectSkill('other', 'x');
    rmSync(one);
    expect(resolveSkill(d.roots, 'cmp')).toMatchObject({ ok: true, skill: { path: two, source: 'project-flat' } });
    rmSync(two);
    expect(resolveSkill(d.roots, 'cmp')).toMatchObject({ ok: true, skill: { path: three, source: 'user' } });
  });

  it('discovers every location, sorted by name, with summaries', () => {
    const d = skillDirs();
    d.userSkill('zeta', skillText('description: from home\nuser-invocable: true', 'z'));
    d.flatSkill('beta', 'no frontmatter at all');
    d.projectSkill('alpha', skillText('description: A\ndisable-model-invocation: true', 'a'));
    d.userSkill('alpha', skillText('description: shadowed', 'a2'));
    const found = discoverSkills(d.roots);
    expect(found.warnings).toEqual([]);
    expect(found.skills.map(summarize)).toEqual([
      expect.objectContaining({ name: 'alpha', description: 'A', model_invocable: false, source: 'project' }),
      expect.objectContaining({ name: 'beta', description: '', user_invocable: false, source: 'project-flat' }),
      expect.objectContaining({ name: 'zeta', description: 'from home', user_invocable: true, source: 'user' }),
    ]);
  });

  it('names a skill by its frontmatter name when it has one', () => {
    const d = skillDirs();
    d.projectSkill('folder-name', skillText('name: renamed', 'body'));
    expect(discoverSkills(d.roots).skills.map((s) => s.name)).toEqual(['renamed']);
    expect(resolveSkill(d.roots, 'renamed')).toMatchObject({ ok: true, skill: { body: 'body' } });
    expect(resolveSkill(d.roots, 'folder-name')).toMatchObject({ ok: false, code: 'not_found' });
  });

  it.each(['../x', '..', 'a/b', 'a b', '', 'x.md', '~root'])(
    'refuses the name %j (path traversal and others)',
    (name) => {
      const d = skillDirs();
      d.flatSkill('x', 'secret');
      const r = resolveSkill(d.roots, name);
      expect(r).toMatchObject({ ok: false, code: 'invalid_name' });
      if (!r.ok) expect(r.message).toContain('only letters, digits, "_", ":" and "-" are allowed');
    },
  );

  it('says where it searched when a skill is missing', () => {
    const d = skillDirs();
    const r = resolveSkill(d.roots, 'ns:missing_1');
    expect(r).toMatchObject({ ok: false, code: 'not_found' });
    if (!r.ok) expect(r.message).toContain(`${d.home}/.claude/skills/ns:missing_1/SKILL.md`);
  });

  it('skips a folder whose name is not a skill name, with a warning, and loads the others', () => {
    const d = skillDirs();
    d.projectSkill('bad name', 'x');
    d.projectSkill('good', 'y');
    const found = discoverSkills(d.roots);
    expect(found.skills.map((s) => s.name)).toEqual(['good']);
    expect(found.warnings).toEqual([expect.stringContaining('bad name/SKILL.md skipped')]);
  });

  it('finds user skills under $HOME when no home is given', () => {
    const d = skillDirs();
    d.userSkill('from-home', 'hi');
    const saved = process.env.HOME;
    process.env.HOME = d.home;
    try {
      expect(resolveSkill({ project_root: d.project }, 'from-home')).toMatchObject({ ok: true, skill: { body: 'hi' } });
    } finally {
      process.env.HOME = saved;
    }
  });
});
