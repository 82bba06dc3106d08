/**
 * Background swarm runs over the real MCP SDK client: swarm_run answers at once,
 * swarm_status follows the workers, swarm_collect answers swarm_run's response; and a
 * server killed with SIGKILL mid-run: a new server reads the run (and its workers)
 * interrupted, kills the commands the dead server left running, and recovers its
 * worktrees, keeping the branch that holds a commit.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { GIT_IDENTITY, git, removeRepos, tempRepo, worktreeCount } from './_git';
import { type Server, startServer, tempDir } from './_harness';

const servers: Server[] = [];
const groups: number[] = [];
afterEach(async () => {
  // Only a failed test leaves any: the recovery under test kills them.
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await Promise.all(servers.splice(0).map((s) => s.close().catch(() => {})));
  removeRepos();
});

async function server(db: string): Promise<Server> {
  const s = await startServer({ db, flags: ['--allow-exec'] });
  servers.push(s);
  return s;
}

/** Live (not zombie) processes of a process group, read from /proc. */
function liveMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') out.push(Number(name));
    } catch {
      // Exited while we looked.
    }
  }
  return out;
}

async function until<T>(fn: () => Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const value = await fn();
    if (ok(value) || performance.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('background swarm runs', () => {
  it('answers at once, reports progress, and collects the same response as a blocking run', async () => {
    const root = tempRepo();
    const s = await server(join(tempDir(), 'colony.db'));
    const r = await s.call('swarm_run', {
      repo_root: root,
      tasks: [
        { name: 'quick', command: 'echo q > q.txt' },
        { name: 'slow', command: 'sleep 1.5; echo s > s.txt' },
      ],
      merge_strategy: 'sequential',
      merge_target: 'main',
      background: true,
    });
    expect(r.payload).toEqual({ swarm_id: expect.stringMatching(/^swarm-/), state: 'running' });
    const id = r.payload.swarm_id;
    const mid = await until(
      () => s.call('swarm_status', { swarm_id: id }),
      (x) => x.payload.workers.some((w: { state: string }) => w.state === 'executing'),
    );
    expect(mid.payload.state).toBe('running');
    const early = await s.call('swarm_collect', { swarm_id: id });
    expect(early.payload.code).toBe('SWARM_NOT_FINISHED');
    const collected = await s.call('swarm_collect', { swarm_id: id, wait_secs: 30 });
    expect(collected.payload.summary).toMatchObject({ total_tasks: 2, succeeded: 2, workers_destroyed: 2 });
    expect(collected.payload.merge.results.map((m: { success: boolean }) => m.success)).toEqual([true, true]);
    const done = await s.call('swarm_status', { swarm_id: id });
    expect(done.payload).toMatchObject({
      state: 'completed',
      progress: { total: 2, completed: 2, running: 0, failed: 0 },
    });
    expect(done.payload.workers.map((w: { state: string; exit_code: number }) => [w.state, w.exit_code])).toEqual([
      ['completed', 0],
      ['completed', 0],
    ]);
    expect(git(root, 'log', '--format=%s', 'main').split('\n')).toContain('swarm: auto-commit slow');
    expect((await s.call('swarm_status', { swarm_id: 'swarm-nope' })).payload.code).toBe('SWARM_NOT_FOUND');
  });

  it('reads a run whose server was SIGKILLed as interrupted, kills its orphaned commands, and recovers its worktrees keeping committed work', async () => {
    const root = tempRepo();
    const pids = tempDir('colony-pids-');
    const db = join(tempDir(), 'colony.db');
    const first = await server(db);
    const r = await first.call('swarm_run', {
      repo_root: root,
      tasks: [
        {
          name: 'worked',
          command: `echo w > w.txt && git add -A && git commit -qm work && echo $$ > ${pids}/worked && sleep 30`,
        },
        { name: 'idle', command: `echo $$ > ${pids}/idle && sleep 30` },
      ],
      env_vars: GIT_IDENTITY,
      background: true,
    });
    const id = r.payload.swarm_id;
    await until(
      async () => existsSync(join(pids, 'worked')) && existsSync(join(pids, 'idle')),
      (ok) => ok,
    );
    for (const name of ['worked', 'idle']) groups.push(Number(readFileSync(join(pids, name), 'utf8')));
    expect(worktreeCount(root)).toBe(3);
    const transport = (first.client as unknown as { transport: StdioClientTransport }).transport;
    process.kill(transport.pid as number, 'SIGKILL');
    // The dead server's commands live on (orphans): only the recovery may end them.
    for (const pgid of groups) expect(liveMembers(pgid).length, `group ${pgid}`).toBeGreaterThan(0);

    const second = await server(db);
    const status = await second.call('swarm_status', { swarm_id: id });
    expect(status.payload.state).toBe('interrupted');
    expect(status.payload.workers.map((w: { state: string }) => w.state)).toEqual(['interrupted', 'interrupted']);
    expect(status.payload.progress).toMatchObject({ total: 2, running: 0, failed: 2 });
    // The new server's first runtime call killed the orphaned process groups before removing the worktrees.
    for (const pgid of groups) expect(liveMembers(pgid), `group ${pgid}`).toEqual([]);
    // The new server's first runtime call recovered the run: worktrees gone, committed work kept.
    expect(worktreeCount(root)).toBe(1);
    expect(git(root, 'branch', '--list', 'colony/*')).toBe(`colony/${id}/worked`);
    expect(git(root, 'show', `colony/${id}/worked:w.txt`)).toBe('w');
    const collect = await second.call('swarm_collect', { swarm_id: id });
    expect(collect.payload).toMatchObject({ code: 'SWARM_NOT_FINISHED', state: 'interrupted' });
    const clean = await second.call('workspace_clean', { repo_root: root });
    expect(clean.payload).toMatchObject({ interrupted: [], process_groups_killed: 0, worktrees_removed: 0 });
  });
});
