/**
 * The `colony swarm start` dashboard on a real terminal: the built CLI in a detached tmux
 * session of fixed size (a private server, `-L colony-test-<pid>`), keys sent with
 * `send-keys`, the screen read with `capture-pane -p`. The scripted provider drives
 * three agents, so no model is involved. `q` leaves the session running in the
 * background (status shows it active); `colony swarm attach` reopens it and Ctrl+C
 * stops it (merge), removing the worktrees. afterAll kills the tmux server and any
 * session runner left behind.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type SwarmFixture, swarmFixture, until } from './_swarm';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');
const SOCKET = `colony-test-${process.pid}`;
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const skip = !hasTmux && !process.env.CI;
if (skip) console.warn('skipping the tmux dashboard test: tmux is not installed (CI would fail instead)');

const tmux = (...args: string[]) => spawnSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const screen = (target: string) => tmux('capture-pane', '-p', '-t', target).stdout;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

async function waitScreen(target: string, pattern: RegExp, ms = 20_000): Promise<string> {
  let last = '';
  try {
    return await until(
      async () => {
        last = screen(target);
        return pattern.test(last) && last;
      },
      ms,
      String(pattern),
    );
  } catch {
    throw new Error(`the screen never showed ${pattern}:\n${last}`);
  }
}

/** Opens `colony <args>` in a new tmux session, 120x40; the pane stays after it exits. */
function open(f: SwarmFixture, name: string, args: string[]): void {
  const env = [
    'COLONY_HOME',
    'NO_COLOR',
    'GIT_AUTHOR_NAME',
    'GIT_AUTHOR_EMAIL',
    'GIT_COMMITTER_NAME',
    'GIT_COMMITTER_EMAIL',
  ];
  const vars = { COLONY_HOME: f.home, NO_COLOR: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t' } as Record<
    string,
    string
  >;
  vars.GIT_COMMITTER_NAME = 't';
  vars.GIT_COMMITTER_EMAIL = 't@t';
  const argv = [process.execPath, CLI, ...args, '--home', f.home, '--db', f.db].map(quote).join(' ');
  const command = `env ${env.map((k) => `${k}=${quote(vars[k]!)}`).join(' ')} ${argv}; echo "[exit $?]"; exec sleep 600`;
  const r = tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', '-c', f.repo, command);
  if (r.status !== 0) throw new Error(`tmux new-session failed: ${r.stderr}`);
}

const IDLE = Array.from({ length: 30 }, () => ({ text: 'Nothing left to do.' }));
const script = (path: string) => [{ tool_calls: [{ name: 'write', input: { path, content: 'x\n' } }] }, ...IDLE];

let fixture: SwarmFixture | null = null;
afterAll(async () => {
  tmux('kill-server');
  if (!fixture) return;
  const status = await fixture.status().catch(() => null);
  // A runner left by a failed test: its detached process group goes too.
  if (status?.session?.active) {
    try {
      process.kill(-status.session.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe.skipIf(skip)('colony swarm start dashboard in tmux', () => {
  it('shows the agent panels and their state changes; q detaches (the session keeps running); attach and Ctrl+C stop it', async () => {
    const f = swarmFixture(() => ({
      agents: [
        { name: 'backend', prompt: 'You own the API.', provider: 'backend' },
        { name: 'frontend', prompt: 'You own the UI.', provider: 'frontend' },
      ],
      providers: {
        backend: { type: 'scripted', script: script('api.ts') },
        frontend: { type: 'scripted', script: script('ui.ts') },
        sup: { type: 'scripted', script: IDLE },
      },
      defaults: { provider: 'sup', liveness: { idle_nudge_after_secs: null } },
    }));
    fixture = f;
    open(f, 'dash', ['swarm', 'start']);
    const first = await waitScreen('dash', /colony swarm · session \d{8}-[0-9a-f]{4} active/);
    const id = /session (\d{8}-[0-9a-f]{4})/.exec(first)![1]!;
    await waitScreen('dash', /> 1 . backend .*\n[\s\S]*2 . frontend[\s\S]*3 . supervisor/);
    // The scripted agents write, then idle: each panel moves on to SessionComplete with a higher seq.
    const idle = await waitScreen('dash', /backend {2}SessionComplete {2}seq [2-9]/);
    expect(idle).toMatch(/backend: .*-> Running/);
    await waitScreen('dash', /supervisor {2}SessionComplete/);

    tmux('send-keys', '-t', 'dash', 'e');
    expect(await waitScreen('dash', /Events/)).toMatch(/backend: .* -> SessionComplete \(seq \d\)/);
    tmux('send-keys', '-t', 'dash', 'Escape');
    await waitScreen('dash', /> 1 . backend/);
    tmux('send-keys', '-t', 'dash', ':');
    await waitScreen('dash', /: █/);
    tmux('send-keys', '-t', 'dash', '-l', 'please wrap up');
    await waitScreen('dash', /: please wrap up█/);
    tmux('send-keys', '-t', 'dash', 'Enter');
    await waitScreen('dash', /sent to backend/);

    tmux('send-keys', '-t', 'dash', 'q');
    const left = await waitScreen('dash', /\[exit 0\]/);
    expect(left).toContain(`detached: session ${id} keeps running`);
    const running = await f.status();
    expect(running.session).toMatchObject({ id, active: true });
    // The background runner still serves the session: the message woke backend for another session.
    await until(async () => (await f.status()).agents.find((a) => a.name === 'backend')!.session_seq >= 3, 15_000);

    open(f, 'again', ['swarm', 'attach']);
    await waitScreen('again', new RegExp(`session ${id} active[\\s\\S]*backend`));
    tmux('send-keys', '-t', 'again', 'C-c');
    const stopped = await waitScreen('again', /\[exit 0\]/, 60_000);
    expect(stopped).toContain(`session ${id} stopped (merge)`);
    expect((await f.status()).session).toBeNull();
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(1);
    expect(existsSync(join(f.repo, 'api.ts'))).toBe(true);
  }, 120_000);
});
