/** Seed 003's six-step evaluation and the five modes, as one table. */
import { describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionsConfig } from '../settings/schema.js';
import { evaluatePermission, type PermissionPolicy } from './evaluate.js';
import { parseRule } from './rule.js';

const project: PermissionsConfig = {
  allow: ['Bash(npm run *)', 'Read(*)', 'WebFetch(domain:*.example.com)', 'mcp__fixture__echo(*)'],
  ask: ['Bash(git push *)'],
  deny: ['Bash(rm -rf *)', 'Read(./.env)'],
};
const policy = (mode: PermissionMode, agent: PermissionsConfig | null = null): PermissionPolicy => ({
  project: { ...project, default_mode: mode },
  agent,
});

type Row = [
  label: string,
  PermissionPolicy,
  tool: string,
  input: Record<string, unknown>,
  decision: string,
  step: number,
  rule: string | null,
];

const ROWS: Row[] = [
  // Step 1: mode short-circuit.
  ['bypass allows a denied call', policy('bypass-permissions'), 'bash', { command: 'rm -rf /' }, 'allow', 1, null],
  [
    'plan denies write even when allowed',
    policy('plan', { allow: ['Write(*)'] }),
    'write',
    { path: 'a' },
    'deny',
    1,
    null,
  ],
  ['plan denies bash', policy('plan'), 'bash', { command: 'npm run test' }, 'deny', 1, null],
  ['plan lets a read through to the rules', policy('plan'), 'read', { path: 'src/a.ts' }, 'allow', 5, 'Read(*)'],
  // Step 2: the agent's rules before the project's.
  [
    'an agent allow beats a project deny',
    policy('default', { allow: ['Bash(rm -rf *)'] }),
    'bash',
    { command: 'rm -rf build' },
    'allow',
    2,
    'Bash(rm -rf *)',
  ],
  [
    'agent deny before agent allow',
    policy('default', { allow: ['Bash'], deny: ['Bash(curl *)'] }),
    'bash',
    { command: 'curl x' },
    'deny',
    2,
    'Bash(curl *)',
  ],
  ['agent ask', policy('default', { ask: ['Edit'] }), 'edit', { path: 'a' }, 'ask', 2, 'Edit'],
  // Steps 3-5: project deny, ask, allow.
  ['project deny', policy('dont-ask'), 'bash', { command: 'rm -rf *' }, 'deny', 3, 'Bash(rm -rf *)'],
  ['project deny on a path', policy('default'), 'read', { path: '.env' }, 'deny', 3, 'Read(./.env)'],
  ['project ask', policy('dont-ask'), 'bash', { command: 'git push origin main' }, 'ask', 4, 'Bash(git push *)'],
  ['project allow (glob)', policy('default'), 'bash', { command: 'npm run test' }, 'allow', 5, 'Bash(npm run *)'],
  ['bash matches Bash', policy('default'), 'BASH', { command: 'npm run build' }, 'allow', 5, 'Bash(npm run *)'],
  [
    'domain glob',
    policy('default'),
    'web_fetch',
    { url: 'https://api.example.com/x' },
    'allow',
    5,
    'WebFetch(domain:*.example.com)',
  ],
  [
    'MCP tool by prefixed name',
    policy('default'),
    'mcp__fixture__echo',
    { text: 'hi' },
    'allow',
    5,
    'mcp__fixture__echo(*)',
  ],
  // Step 6: the mode's default.
  ['default asks when nothing matches', policy('default'), 'bash', { command: 'npm test' }, 'ask', 6, null],
  [
    'domain glob does not cover another domain',
    policy('default'),
    'web_fetch',
    { url: 'https://example.org/' },
    'ask',
    6,
    null,
  ],
  ['accept-edits allows an edit', policy('accept-edits'), 'edit', { path: 'a' }, 'allow', 6, null],
  ['accept-edits asks for bash', policy('accept-edits'), 'bash', { command: 'ls' }, 'ask', 6, null],
  ['dont-ask allows what nothing matched', policy('dont-ask'), 'bash', { command: 'ls' }, 'allow', 6, null],
  ['plan asks for an unmatched read-only tool', policy('plan'), 'grep', { pattern: 'x' }, 'ask', 6, null],
  [
    'an agent mode overrides the project mode',
    policy('default', { default_mode: 'dont-ask' }),
    'bash',
    { command: 'ls' },
    'allow',
    6,
    null,
  ],
];

describe('evaluatePermission (seed 003 evaluation order)', () => {
  it.each(ROWS)('%s', (_label, p, tool, input, decision, step, rule) => {
    const verdict = evaluatePermission(p, tool, input);
    expect({ decision: verdict.decision, step: verdict.step, rule: verdict.rule }).toEqual({ decision, step, rule });
  });

  it('names the rule and its level in the reason', () => {
    expect(evaluatePermission(policy('default'), 'bash', { command: 'rm -rf *' }).reason).toBe(
      'project deny rule Bash(rm -rf *)',
    );
  });
});

describe('parseRule', () => {
  it('reads Tool and Tool(specifier), refuses anything else', () => {
    expect(parseRule('Bash')).toMatchObject({ tool: 'bash', specifier: null });
    expect(parseRule('WebFetch(domain:*.x.com)')).toMatchObject({ tool: 'webfetch', specifier: 'domain:*.x.com' });
    expect(parseRule('mcp__fs__read_file(*)')).toMatchObject({ tool: 'mcp__fs__read_file', specifier: '*' });
    expect(parseRule('Bash(npm')).toBeNull();
    expect(parseRule('')).toBeNull();
  });
});
