import { describe, expect, it } from 'vitest';
import { DEFAULT_FRONTMATTER, parseSkillFile, resolveSkill, substituteArguments, toolFilter } from '../src/index.js';
import { skillDirs, skillText } from './_skills.js';

describe('skill frontmatter', () => {
  it('reads every field the seed lists, kebab-case keys into snake_case fields', () => {
    const text = skillText(
      [
        'name: commit',
        'description: Create a conventional commit',
        'user-invocable: true',
        'disable-model-invocation: true',
        'allowed-tools:',
        '  - Bash(git *)',
        '  - Read',
        'model: claude-sonnet-4-5-20250929',
        'context: fork',
        'agent: researcher',
        'argument-hint: "[commit message]"',
        'unsafe: false',
        'hooks:',
        '  pre_tool_use:',
        '    - matcher: Bash',
        '      hooks: [{ type: command, command: ./check.sh, timeout: 10 }]',
      ].join('\n'),
      'Commit: $ARGUMENTS\n',
    );
    const parsed = parseSkillFile(text);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.body).toBe('Commit: $ARGUMENTS\n');
    expect(parsed.frontmatter).toEqual({
      name: 'commit',
      description: 'Create a conventional commit',
      user_invocable: true,
      disable_model_invocation: true,
      allowed_tools: ['Bash(git *)', 'Read'],
      model: 'claude-sonnet-4-5-20250929',
      context: 'fork',
      agent: 'researcher',
      hooks: { pre_tool_use: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh', timeout: 10 }] }] },
      argument_hint: '[commit message]',
      unsafe: false,
    });
  });

  it('accepts allowed-tools on one line, split at commas and spaces outside parentheses', () => {
    const parsed = parseSkillFile(skillText('allowed-tools: Bash(git add *), Read Grep', 'x'));
    expect(parsed.frontmatter.allowed_tools).toEqual(['Bash(git add *)', 'Read', 'Grep']);
  });

  it('loads a skill with YAML that does not parse: defaults and a warning', () => {
    const d = skillDirs();
    d.projectSkill('broken', skillText('description: [unclosed\nuser-invocable: : :', 'still here'));
    const r = resolveSkill(d.roots, 'broken');
    expect(r).toMatchObject({
      ok: true,
      skill: { name: 'broken', body: 'still here', frontmatter: DEFAULT_FRONTMATTER },
    });
    if (r.ok)
      expect(r.skill.warnings).toEqual([
        expect.stringMatching(/^frontmatter is not valid YAML \(.+\): defaults used$/),
      ]);
  });

  it('drops a field with a wrong value (warning) and keeps the others', () => {
    const parsed = parseSkillFile(
      skillText('description: ok\nuser-invocable: "yes"\nname: "../evil"\nallowed_tools: [Read]\nmodel: opus', 'b'),
    );
    expect(parsed.frontmatter).toEqual({ ...DEFAULT_FRONTMATTER, description: 'ok', model: 'opus' });
    expect(parsed.warnings).toEqual([
      expect.stringContaining('frontmatter "user-invocable" ignored'),
      expect.stringContaining('frontmatter "name" ignored'),
      'unknown frontmatter key "allowed_tools" ignored',
    ]);
  });

  it('treats a file without frontmatter as all body, and an unclosed block as body with a warning', () => {
    expect(parseSkillFile('just text\n')).toEqual({
      frontmatter: DEFAULT_FRONTMATTER,
      body: 'just text\n',
      warnings: [],
    });
    const unclosed = parseSkillFile('---\ndescription: x\nno end');
    expect(unclosed.body).toBe('---\ndescription: x\nno end');
    expect(unclosed.warnings).toEqual([expect.stringContaining('no closing "---"')]);
    expect(parseSkillFile('---\n- a\n- b\n---\nbody').warnings).toEqual([
      'frontmatter is not a YAML mapping: defaults used',
    ]);
  });
});

describe('argument substitution', () => {
  it('expands $0 $1 $ARGUMENTS $ARGUMENTS[1] $ARGUMENTS1 $9 (missing = empty)', () => {
    expect(substituteArguments('$0 $1 $ARGUMENTS $ARGUMENTS[1] $ARGUMENTS1 $9', 'a b')).toBe('a b a b b b ');
  });

  it('is one pass: substituted text is never scanned again', () => {
    expect(substituteArguments('first=$0 all=$ARGUMENTS', '$1 $ARGUMENTS')).toBe('first=$1 all=$1 $ARGUMENTS');
    expect(substituteArguments('$ARGUMENTS[0]', ['$ARGUMENTS[1]', 'x'])).toBe('$ARGUMENTS[1]');
  });

  it('splits at any whitespace, knows only indices 0-9, and takes a list as positional arguments', () => {
    expect(substituteArguments('[$0|$1|$2]', '  src/a.ts\t--verbose  ')).toBe('[src/a.ts|--verbose|]');
    expect(substituteArguments('$10 $ARGUMENTS10 $ARGUMENTS[10]', 'a b')).toBe('b0 b0 a b[10]');
    expect(substituteArguments('$0/$1 ($ARGUMENTS)', ['with space', 'y'])).toBe('with space/y (with space y)');
    expect(substituteArguments('no args: [$ARGUMENTS] [$0]', '')).toBe('no args: [] []');
  });
});

describe('allowed-tools as a tool filter', () => {
  it('matches names in any case, ignores specifiers, knows mcp__<server> and a trailing *', () => {
    const allows = toolFilter(['Bash(git *)', 'Read', 'mcp__colony', 'mcp__gh__search_*']);
    expect(['bash', 'read', 'mcp__colony__task_list', 'mcp__gh__search_repos'].map(allows)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['write', 'skill', 'mcp__colonyx__a', 'mcp__gh__create'].map(allows)).toEqual([false, false, false, false]);
    expect(toolFilter(null)('anything')).toBe(true);
    expect(toolFilter([])('read')).toBe(false);
  });
});
