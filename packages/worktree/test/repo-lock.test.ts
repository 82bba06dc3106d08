/**
 * The repository lock across processes. Git takes no lock around worktree metadata: a
 * `git worktree add` in one process that reads another's `worktrees/<id>/` half-written
 * dies ("failed to read .../commondir"). Before the lock was cross-process, five
 * processes adding ten worktrees each failed in most rounds.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { colonyWorktrees, openRepo, withRepoLock } from '../src/index';
import { tempRepos } from './_repo';

const run = promisify(execFile);
const dist = new URL('../dist/index.js', import.meta.url).href;
const LOCK = 'colony-repo.lock';

const repo = tempRepos();

describe('repository lock', () => {
  it('lets five processes add ten worktrees each at once, none failing', async () => {
    const { root } = repo();
    const script = `const wt = await import(${JSON.stringify(dist)});
const repo = await wt.openRepo(process.argv[1]);
await Promise.all(process.argv.slice(2).map((n) => wt.forkWorktree(repo, wt.workspaceLayout(repo, n))));`;
    const names = (p: string) => Array.from({ length: 10 }, (_, i) => `${p}${i}`);
    await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((p) =>
        run(process.execPath, ['--input-type=module', '-e', script, root, ...names(p)], {
          timeout: 120_000,
          env: { ...process.env, COLONY_WORKTREE_POOL: '0' },
        }),
      ),
    );
    const listed = (await colonyWorktrees(await openRepo(root))).map((w) => w.workspace_name);
    expect(listed.sort()).toEqual(['a', 'b', 'c', 'd', 'e'].flatMap(names).sort());
    expect(existsSync(join(root, '.git', LOCK))).toBe(false);
  }, 150_000);

  it('waits for a hold in another process, then runs', async () => {
    const { root } = repo();
    const r = await openRepo(root);
    const script = `const wt = await import(${JSON.stringify(dist)});
await wt.withRepoLock(process.argv[1], async () => {
  console.log('held');
  await new Promise((done) => setTimeout(done, 600));
  console.log('released');
});`;
    const holder = spawn(process.execPath, ['--input-type=module', '-e', script, r.commonDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const exited = new Promise<number | null>((done) => holder.on('exit', done));
    await new Promise<void>((done) =>
      holder.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('held')) done();
      }),
    );
    const start = Date.now();
    const seen = await withRepoLock(r.commonDir, async () => out);
    expect(Date.now() - start).toBeGreaterThan(300);
    expect(seen).toContain('released');
    expect(await exited).toBe(0);
  }, 30_000);

  it('takes over the lock of a holder that died holding it', async () => {
    const { root } = repo();
    const r = await openRepo(root);
    // What a holder killed with SIGKILL leaves: the lock's folder, no longer refreshed.
    const lock = join(r.commonDir, LOCK);
    mkdirSync(lock);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const start = Date.now();
    expect(await withRepoLock(r.commonDir, async () => 'ran')).toBe('ran');
    expect(Date.now() - start).toBeLessThan(5_000);
    expect(existsSync(lock)).toBe(false);
  });
});
