/**
 * The `colony swarm` session commands as real CLI processes on a temp repository and
 * COLONY_HOME, with the scripted provider (no server, no key): init and config, every
 * command run from another folder with --repo, status --json field by field, broadcast,
 * logs (--follow, --session N or id), stop --squash, a session that ends by itself when
 * every agent has stopped (merging, the supervisor's branch last), clean with and
 * without --force, and start --init.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type StartedCli, type SwarmFixture, swarmFixture, until } from './_swarm';

let started: StartedCli[] = [];
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') for (const s of started) console.error(s.output());
  for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await Promise.all(started.map((s) => s.exited()));
  started = [];
});

const IDLE = Array.from({ length: 30 }, () => ({ text: 'Nothing left to do.' }));
const writes = (path: string) => [{ tool_calls: [{ name: 'write', input: { path, content: `${path}\n` } }] }];

/** backend, frontend and the supervisor each write one file, then idle (or fail once, with `then`). */
function scripted(then: Record<string, unknown>[] = IDLE, extra: Record<string, unknown> = {}) {
  return () => ({
    agents: [
      { name: 'backend', prompt: 'You own the API.', provider: 'backend' },
      { name: 'frontend', prompt: 'You own the UI.', provider: 'frontend' },
    ],
    providers: {
      backend: { type: 'scripted', script: [...writes('api.ts'), ...then] },
      frontend: { type: 'scripted', script: [...writes('ui.ts'), ...then] },
      sup: { type: 'scripted', script: [...writes('review.md'), ...then] },
    },
    defaults: { provider: 'sup', liveness: { idle_nudge_after_secs: null }, ...extra },
  });
}

interface StatusJson {
  session: Record<string, unknown> | null;
  agents: Record<string, unknown>[];
  plans: Record<string, unknown>;
}

async function statusFrom(f: SwarmFixture, cwd: string): Promise<StatusJson> {
  const r = await f.colony(['swarm', 'status', '--json', '--repo', f.repo], cwd);
  if (r.code !== 0) throw new Error(`status failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as StatusJson;
}

function settingsOf(f: SwarmFixture): Record<string, unknown> {
  return JSON.parse(readFileSync(join(f.home, 'settings.json'), 'utf8')) as Record<string, unknown>;
}

describe('colony swarm init and config', () => {
  it('init writes a starter entry keyed by the canonical path, keeping colony keys and other projects; a second init refuses unless --force', async () => {
    const f = swarmFixture(() => ({}));
    const other = { agents: [{ name: 'solo', prompt: 'x' }] };
    writeFileSync(
      join(f.home, 'settings.json'),
      JSON.stringify({ search: { alpha: 0.3 }, roots: ['/srv'], '/elsewhere/project': other }),
    );
    symlinkSync(f.repo, join(f.dir, 'link'));
    const init = await f.colony(['swarm', 'init', '--path', 'link'], f.dir);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`wrote the entry for ${f.repo}`);
    const written = settingsOf(f);
    expect(Object.keys(written).sort()).toEqual(['/elsewhere/project', f.repo, 'roots', 'search', 'version'].sort());
    expect(written).toMatchObject({ version: 2, search: { alpha: 0.3 }, roots: ['/srv'], '/elsewhere/project': other });
    expect(written[f.repo]).toMatchObject({
      providers: { default: { type: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY' } },
      defaults: { model: 'sonnet' },
      agents: [{ name: 'backend' }, { name: 'frontend' }],
    });

    const again = await f.colony(['swarm', 'init']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has an entry for .*pass --force/);
    expect(settingsOf(f)).toEqual(written);

    const entry = written[f.repo] as { agents: { name: string }[] };
    writeFileSync(
      join(f.home, 'settings.json'),
      JSON.stringify({ ...written, [f.repo]: { ...entry, agents: [{ name: 'edited', prompt: 'x' }] } }),
    );
    const forced = await f.colony(['swarm', 'init', '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ project_root: f.repo, replaced: true, created_file: false });
    expect(settingsOf(f)).toEqual(written);
  });

  it('config prints the resolved configuration (--json: providers, defaults, agents, supervisor, permissions); a bad field is named and exits 1', async () => {
    const f = swarmFixture(() => ({}));
    expect((await f.colony(['swarm', 'init', '--force'])).code).toBe(0);
    const json = await f.colony(['swarm', 'config', '--json', '--repo', f.repo], f.dir);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const config = JSON.parse(json.stdout);
    expect(Object.keys(config)).toEqual(
      expect.arrayContaining(['providers', 'defaults', 'agents', 'supervisor', 'permissions']),
    );
    expect(config.providers.default).toMatchObject({ type: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY' });
    expect(config.defaults).toMatchObject({
      model: 'sonnet',
      provider: 'default',
      commit_interval: 300,
      max_consecutive_errors: 5,
      max_total_errors: 20,
      liveness: { enabled: true, idle_nudge_after_secs: 120, max_nudges: 3, stall_timeout_secs: 900 },
    });
    expect(config.agents.map((a: { name: string; mode: string }) => [a.name, a.mode])).toEqual([
      ['backend', 'code'],
      ['frontend', 'code'],
    ]);
    expect(config.agents[0].model_id).toMatch(/^claude-/);
    expect(config.supervisor.model).toBe('sonnet');
    expect(config.permissions).toBeNull();

    // Human output, from a sub-folder of the repository.
    mkdirSync(join(f.repo, 'src'));
    const human = await f.colony(['swarm', 'config'], join(f.repo, 'src'));
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`project ${f.repo} (version 2`);
    expect(human.stdout).toMatch(/agents:\n {2}backend {2}model sonnet \(claude-/);

    const settings = settingsOf(f);
    const entry = settings[f.repo] as { agents: { name: string; prompt: string }[] };
    entry.agents[1]!.name = 'Bad Name';
    writeFileSync(join(f.home, 'settings.json'), JSON.stringify(settings));
    const bad = await f.colony(['swarm', 'config', '--json']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('config validation failed: agents[1].name');
  });
});

describe('colony swarm sessions, every command with --repo from another folder', () => {
  it('start, status --json (every field), broadcast, send, logs --follow, stop --squash (supervisor last), logs --session', async () => {
    const f = swarmFixture(scripted());
    const out = f.dir;
    const start = f.start(['--repo', f.repo], out);
    started.push(start);
    await start.waitFor(/session \d{8}-[0-9a-f]{4} started: backend, frontend, supervisor/);
    const idle = await until(
      async () => {
        const s = await statusFrom(f, out);
        return s.agents.every((a) => a.state === 'SessionComplete' && Number(a.session_seq) >= 2) && s;
      },
      20_000,
      'three idle agents',
    );
    expect(Object.keys(idle.session!).sort()).toEqual(['active', 'base_commit', 'id', 'pid', 'started_at']);
    expect(idle.session).toMatchObject({ active: true, pid: start.child.pid });
    expect(idle.session!.id).toMatch(/^\d{8}-[0-9a-f]{4}$/);
    expect(idle.session!.base_commit).toBe(f.git('rev-parse', 'HEAD'));
    expect(new Date(String(idle.session!.started_at)).toISOString()).toBe(idle.session!.started_at);
    expect(idle.plans).toEqual({ available: 0, claimed: 0, completed: 0 });
    expect(idle.agents.map((a) => a.name)).toEqual(['backend', 'frontend', 'supervisor']);
    for (const a of idle.agents) {
      expect(a).toMatchObject({ state: 'SessionComplete', consecutive_errors: 0, total_errors: 0, stop_reason: null });
      expect(a.session_seq).toBe(2);
      expect(new Date(String(a.last_activity)).toISOString()).toBe(a.last_activity);
    }

    const broadcast = await f.colony(['swarm', 'broadcast', 'Please', 'wrap', 'up.', '--repo', f.repo], out);
    expect(broadcast.stderr).toBe('');
    expect(broadcast.stdout.trim()).toBe('sent to backend, frontend, supervisor');
    // Each agent wakes, reads the message into its next prompt (marked read) and runs session 3.
    await until(
      async () => (await statusFrom(f, out)).agents.every((a) => a.session_seq === 3 && a.state === 'SessionComplete'),
      20_000,
      'a third session each',
    );
    for (const agent of ['backend', 'frontend', 'supervisor']) {
      const inbox = (await f.tool('task_messages', {
        session_id: `swarm-${idle.session!.id}-${agent}`,
        agent,
        unread_only: false,
      })) as unknown;
      expect(inbox).toMatchObject([{ status: 'read', from_agent: 'operator' }]);
    }

    const follow = f.spawn(['swarm', 'logs', 'backend', '--follow', '--repo', f.repo], out);
    started.push(follow);
    await follow.waitFor(/session 3 ended/);
    const send = await f.colony(['swarm', 'send', 'backend', 'One more thing.', '--repo', f.repo], out);
    expect(send.stdout.trim()).toBe('sent to backend');
    await follow.waitFor(/session 4 ended/, 20_000);
    follow.child.kill('SIGTERM');
    await follow.exited();

    const stop = await f.colony(['swarm', 'stop', '--squash', '--repo', f.repo], out);
    expect(stop.stderr).toBe('');
    expect(stop.code).toBe(0);
    expect(await start.exited()).toBe(0);
    expect(f.git('log', '--format=%s', '-3').split('\n')).toEqual([
      'Squash agent: supervisor',
      'Squash agent: frontend',
      'Squash agent: backend',
    ]);
    for (const file of ['api.ts', 'ui.ts', 'review.md']) expect(existsSync(join(f.repo, file))).toBe(true);
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(1);
    expect(f.git('branch', '--list', 'colony/*')).toBe('');
    expect((await statusFrom(f, out)).session).toBeNull();

    const byNumber = await f.colony(['swarm', 'logs', 'supervisor', '--session', '1', '--repo', f.repo], out);
    expect(byNumber.code).toBe(0);
    expect(byNumber.stdout).toMatch(/session 1 ended/);
    const byId = await f.colony(['swarm', 'logs', 'supervisor', '--session', String(idle.session!.id)]);
    expect(byId.stdout).toBe(byNumber.stdout);
    const tooFar = await f.colony(['swarm', 'logs', 'supervisor', '--session', '2']);
    expect(tooFar.code).toBe(1);
    expect(tooFar.stderr).toMatch(/1 session log\(s\); give 1\.\.1 or an id/);
  }, 90_000);

  it('a session whose agents have all stopped ends by itself with the default merge, the supervisor merged last; logs --session N counts back', async () => {
    const fail = [{ error: { kind: 'auth', message: 'scripted: key revoked' } }];
    const f = swarmFixture(scripted(fail, { max_consecutive_errors: 1 }));
    const ids: string[] = [];
    for (let round = 0; round < 2; round++) {
      const start = f.start(['--repo', f.repo], f.dir);
      started.push(start);
      expect(await start.exited()).toBe(0);
      const output = start.output();
      ids.push(/session (\d{8}-[0-9a-f]{4}) started/.exec(output)![1]!);
      expect(output).toContain(`all agents stopped: ending session ${ids[round]} (merge)`);
      expect(output).toContain(`session ${ids[round]} stopped`);
    }
    // Round 1 merged the three branches (the supervisor's last); round 2 wrote the same files: nothing new.
    expect(f.git('log', '--first-parent', '--format=%s', '-4').split('\n')).toEqual([
      'Merge agent: supervisor',
      'Merge agent: frontend',
      'Merge agent: backend',
      'init',
    ]);
    expect(f.git('show', '--stat', '--format=', 'HEAD^2')).toContain('review.md');
    expect(existsSync(join(f.repo, '.colony', 'session.json'))).toBe(false);
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(1);

    const latest = await f.colony(['swarm', 'logs', 'backend', '--session', '1']);
    const previous = await f.colony(['swarm', 'logs', 'backend', '--session', '2', '--repo', f.repo], f.dir);
    expect(latest.stdout).toBe((await f.colony(['swarm', 'logs', 'backend', '--session', ids[1]!])).stdout);
    expect(previous.stdout).toBe((await f.colony(['swarm', 'logs', 'backend', '--session', ids[0]!])).stdout);
    expect(latest.stdout).not.toBe(previous.stdout);
    expect(previous.stdout).toMatch(/session 1 ended: error/);
  }, 90_000);

  it('clean without --force and no terminal refuses and says to pass --force; --force removes worktrees, branches and files', async () => {
    const f = swarmFixture(scripted());
    const start = f.start();
    started.push(start);
    await start.waitFor(/started/);
    await until(
      async () => (await f.status()).agents.every((a) => a.state === 'SessionComplete'),
      20_000,
      'idle agents',
    );
    const busy = await f.colony(['swarm', 'clean', '--force', '--repo', f.repo], f.dir);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/is running \(pid \d+\): stop it first/);
    start.child.kill('SIGKILL');
    await start.exited();

    const asked = await f.colony(['swarm', 'clean', '--repo', f.repo], f.dir);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(/would remove the files of dead session \d{8}-[0-9a-f]{4}, worktree .*pass --force/);
    expect(asked.stderr).toContain('branch colony/');
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(4);
    expect(existsSync(join(f.repo, '.colony', 'session.json'))).toBe(true);

    const forced = await f.colony(['swarm', 'clean', '--force', '--repo', f.repo], f.dir);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(1);
    expect(f.git('branch', '--list', 'colony/*')).toBe('');
    expect(existsSync(join(f.repo, '.colony', 'session.json'))).toBe(false);
    expect(existsSync(join(f.repo, '.colony', 'session.lock'))).toBe(false);
    const nothing = await f.colony(['swarm', 'clean']);
    expect(nothing).toMatchObject({ code: 0, stdout: 'nothing to clean\n' });
  }, 60_000);

  it('start --init makes a repository of a plain folder (an initial commit) and runs the session there', async () => {
    const f = swarmFixture(() => ({}));
    const fresh = join(f.dir, 'fresh');
    mkdirSync(fresh);
    const settings = scripted()();
    writeFileSync(join(f.home, 'settings.json'), JSON.stringify({ version: 2, [realpathSync(fresh)]: settings }));
    const plain = f.start(['--repo', fresh], f.dir);
    started.push(plain);
    expect(await plain.exited()).toBe(1);
    expect(plain.output()).toMatch(/is not inside a git repository \(pass --init to make it one\)/);
    const start = f.start(['--init', '--repo', fresh], f.dir);
    started.push(start);
    await start.waitFor(/session \d{8}-[0-9a-f]{4} started/);
    // Stop only once the agent has finished its first session (a stop sent at once can
    // reach it before it ever ran, under load).
    await until(
      async () => /session 1 ended/.test((await f.colony(['swarm', 'logs', 'backend', '--repo', fresh], f.dir)).stdout),
      30_000,
      "backend's first session",
    );
    expect((await f.colony(['swarm', 'stop', '--repo', fresh], f.dir)).code).toBe(0);
    expect(await start.exited()).toBe(0);
    expect(existsSync(join(fresh, '.git'))).toBe(true);
    expect(existsSync(join(fresh, 'api.ts'))).toBe(true);
  }, 60_000);
});
