/**
 * `colony swarm permissions check` and `colony swarm hooks run` as real CLI processes on
 * a temp repository and COLONY_HOME: the decision with its step and rule (human and
 * --json), the agent before the project, an unknown agent refused; hooks fired with a
 * context file, blocking and non-blocking exit codes, a bad settings block named.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { swarmFixture } from './_swarm';

const settings = () => ({
  agents: [
    { name: 'backend', prompt: 'API.' },
    { name: 'reviewer', prompt: 'Review.', permissions: { allow: ['Read(*)'], deny: ['Write(*)', 'Bash(*)'] } },
  ],
  permissions: {
    allow: ['Bash(npm run *)', 'WebFetch(domain:*.example.com)'],
    ask: ['Bash(git push *)'],
    deny: ['Bash(rm -rf *)'],
    default_mode: 'default',
  },
  hooks: {
    pre_tool_use: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > seen.json; echo "no shell today" >&2; exit 2' }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'exit 1' }] },
      { matcher: 'Write', hooks: [{ type: 'command', command: `echo '{"decision":"deny","reason":"frozen"}'` }] },
    ],
    session_start: [{ hooks: [{ type: 'command', command: 'sleep 0.3; touch started', async: true }] }],
  },
});

describe('colony swarm permissions check', () => {
  const f = swarmFixture(settings);

  it('prints the decision, the step and the rule; --json gives the verdict', async () => {
    const deny = await f.colony(['swarm', 'permissions', 'check', 'backend', 'Bash(rm -rf *)']);
    expect(deny.code, deny.stderr).toBe(0);
    expect(deny.stdout).toBe('deny  (step 3, rule Bash(rm -rf *))\nproject deny rule Bash(rm -rf *)\n');
    const json = await f.colony(['swarm', 'permissions', 'check', 'backend', 'bash(npm run test)', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      agent: 'backend',
      tool: 'bash',
      input: { command: 'npm run test' },
      decision: 'allow',
      step: 5,
      source: 'project',
      rule: 'Bash(npm run *)',
      mode: 'default',
    });
    const ask = JSON.parse(
      (await f.colony(['swarm', 'permissions', 'check', 'backend', 'Bash(npm test)', '--json'])).stdout,
    );
    expect(ask).toMatchObject({ decision: 'ask', step: 6, rule: null });
  });

  it("evaluates the agent's own rules first, and refuses an unknown agent", async () => {
    const r = JSON.parse(
      (await f.colony(['swarm', 'permissions', 'check', 'reviewer', 'Bash(npm run test)', '--json'])).stdout,
    );
    expect(r).toMatchObject({ decision: 'deny', step: 2, source: 'agent', rule: 'Bash(*)' });
    const unknown = await f.colony(['swarm', 'permissions', 'check', 'nobody', 'Bash(ls)']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown agent nobody \(one of backend, reviewer, supervisor\)/);
  });
});

describe('colony swarm hooks run', () => {
  const f = swarmFixture(settings);
  const input = (name: string, value: Record<string, unknown>) => {
    const path = join(f.dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };

  it('exit 2 blocks with stderr as the reason; the hook reads the context on stdin, inapplicable fields omitted', async () => {
    const file = input('bash.json', { session_id: 's-9', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const r = await f.colony(['swarm', 'hooks', 'run', 'PreToolUse', '--input', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      event: 'PreToolUse',
      matched: 1,
      blocked: true,
      reasons: ['no shell today'],
    });
    const seen = JSON.parse(readFileSync(join(f.repo, 'seen.json'), 'utf8'));
    expect(seen).toEqual({
      session_id: 's-9',
      cwd: f.repo,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    const human = await f.colony(['swarm', 'hooks', 'run', 'pre_tool_use', '--input', file]);
    expect(human.stdout).toContain('PreToolUse: 1 hook(s) matched, 1 sync, 0 async; blocked: no shell today');
  });

  it('exit 1 is logged and does not block; a JSON deny blocks with its reason', async () => {
    const read = await f.colony([
      'swarm',
      'hooks',
      'run',
      'pre_tool_use',
      '--input',
      input('r.json', { tool_name: 'read' }),
      '--json',
    ]);
    expect(JSON.parse(read.stdout)).toMatchObject({
      blocked: false,
      runs: [{ exit_code: 1, decision: null, error: 'exit code 1' }],
    });
    const write = await f.colony([
      'swarm',
      'hooks',
      'run',
      'pre_tool_use',
      '--input',
      input('w.json', { tool_name: 'Write' }),
      '--json',
    ]);
    expect(JSON.parse(write.stdout)).toMatchObject({ blocked: true, reasons: ['frozen'] });
  });

  it('async hooks start in the background and finish before the command exits', async () => {
    const r = await f.colony(['swarm', 'hooks', 'run', 'session_start', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ event: 'SessionStart', async_started: 1, runs: [], blocked: false });
    expect(existsSync(join(f.repo, 'started'))).toBe(true);
  });

  it('refuses an unknown event', async () => {
    const r = await f.colony(['swarm', 'hooks', 'run', 'NoSuchEvent']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown hook event NoSuchEvent');
  });
});

describe('hooks settings', () => {
  it('a misspelt event key or a bad matcher is a validation error naming the field', async () => {
    const f = swarmFixture(() => ({ agents: [{ name: 'backend', prompt: 'x' }], hooks: { preToolUse: [] } }));
    const misspelt = await f.colony(['swarm', 'config']);
    expect(misspelt.code).toBe(1);
    expect(misspelt.stderr).toMatch(/hooks.*preToolUse/);
    const path = join(f.home, 'settings.json');
    const file = JSON.parse(readFileSync(path, 'utf8'));
    file[f.repo].hooks = { pre_tool_use: [{ matcher: '(', hooks: [] }] };
    writeFileSync(path, JSON.stringify(file));
    const bad = await f.colony(['swarm', 'config']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('hooks.pre_tool_use[0].matcher: matcher is not a valid regular expression');
  });
});

describe('a colony swarm session under permissions and hooks', () => {
  it('denies `rm -rf *` by rule (the worktree untouched, the refusal logged) and fires SessionStart in each worktree', async () => {
    const fail = [{ error: { kind: 'auth', message: 'scripted: key revoked' } }];
    const rm = [{ tool_calls: [{ name: 'bash', input: { command: 'rm -rf *' } }] }];
    const f = swarmFixture((repo) => ({
      agents: [{ name: 'backend', prompt: 'API.', provider: 'backend' }],
      providers: {
        backend: { type: 'scripted', script: [...rm, ...fail] },
        sup: { type: 'scripted', script: fail },
      },
      defaults: { provider: 'sup', max_consecutive_errors: 1, liveness: { idle_nudge_after_secs: null } },
      permissions: { deny: ['Bash(rm -rf *)'], default_mode: 'dont-ask' },
      hooks: {
        session_start: [{ hooks: [{ type: 'command', command: `pwd >> '${join(repo, '..', 'starts.log')}'` }] }],
      },
    }));
    const start = f.start(['--repo', f.repo], f.dir);
    try {
      expect(await start.exited(), start.output()).toBe(0);
    } finally {
      if (start.child.exitCode === null) start.child.kill('SIGKILL');
    }
    expect(existsSync(join(f.repo, 'README.md'))).toBe(true);
    const id = /session (\d{8}-[0-9a-f]{4}) started/.exec(start.output())![1]!;
    const log = readFileSync(join(f.repo, '.colony', 'logs', id, 'backend.log'), 'utf8');
    expect(log).toContain('bash refused: permission denied: project deny rule Bash(rm -rf *)');
    const starts = readFileSync(join(f.dir, 'starts.log'), 'utf8').trim().split('\n');
    expect(starts.some((p) => p.endsWith('backend'))).toBe(true);
  });
});
