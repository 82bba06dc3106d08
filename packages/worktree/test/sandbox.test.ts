/**
 * The OS sandbox on this machine (bubblewrap): a command writes its worktree and
 * nothing else, reaches no network unless allowed, still dies whole on timeout, and can
 * commit in a linked worktree; exec_parallel runs its commands the same way when the
 * sandbox is configured. The argument list and the macOS profile are checked as text.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../src/_proc';
import {
  bwrapArgs,
  execParallel,
  forkWorkspaces,
  macosProfile,
  openRepo,
  planSpawn,
  resolveAll,
  runCommand,
  type SandboxPolicy,
} from '../src/index';
import { sh, tempRepo } from './_repo';
import { connectCommand, pongServer, SANDBOX, SKIP_SANDBOX } from './_sandbox';

const closed: SandboxPolicy = { mode: 'required', allow_network: false, writable: [] };

describe('sandbox argument lists', () => {
  it('binds the writable folders after the private /tmp and drops the network unless allowed', () => {
    const args = bwrapArgs({ writable: ['/tmp/wt'], allowNetwork: false, cwd: '/tmp/wt/src' }, 'make');
    expect(args.join(' ')).toBe(
      '--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /tmp/wt /tmp/wt --unshare-pid --unshare-ipc --unshare-uts --die-with-parent --unshare-net --chdir /tmp/wt/src -- /bin/sh -c make',
    );
    expect(bwrapArgs({ writable: [], allowNetwork: true, cwd: '/' }, 'x')).not.toContain('--unshare-net');
  });

  it("makes the command's $TMPDIR inside the private /tmp when it lies under /tmp, before the binds", () => {
    const args = bwrapArgs({ writable: ['/tmp/wt'], allowNetwork: true, cwd: '/', tmpDir: '/tmp/user//1000/' }, 'x');
    expect(args.join(' ')).toContain('--tmpfs /tmp --dir /tmp/user/1000 --bind /tmp/wt /tmp/wt');
    for (const tmpDir of ['/tmp', '/tmp/', '/var/tmp/x', 'tmp/x', '/tmp/../etc']) {
      expect(bwrapArgs({ writable: [], allowNetwork: true, cwd: '/', tmpDir }, 'x')).not.toContain('--dir');
    }
  });

  it('writes a macOS profile that denies by default, writes only the given folders, and gates the network', () => {
    const profile = macosProfile({ writable: ['/Users/a/wt', '/private/var/x "q"'], allowNetwork: false });
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain('(allow file-read*)');
    expect(profile).toContain('(allow file-write* (subpath "/Users/a/wt") (subpath "/private/var/x \\"q\\""))');
    expect(profile).toContain('(allow network* (remote unix-socket))');
    expect(profile).not.toContain('(allow network*)\n');
    expect(macosProfile({ writable: [], allowNetwork: true })).toContain('(allow network*)\n(allow system-socket)');
  });

  it('refuses a required sandbox that is missing, and runs plainly in auto mode', () => {
    const none = () => ({ kind: null, binary: null, reason: 'bwrap not found' });
    expect(planSpawn('true', '/', { policy: closed, root: '/' }, none)).toEqual({
      ok: false,
      reason: 'sandbox required but none is available: bwrap not found',
    });
    const auto = planSpawn('true', '/', { policy: { ...closed, mode: 'auto' }, root: '/' }, none);
    expect(auto).toEqual({ ok: true, file: '/bin/sh', args: ['-c', 'true'], sandbox: null });
  });
});

describe.skipIf(SKIP_SANDBOX)('commands under bubblewrap', () => {
  let base: string;
  let wt: string;
  beforeAll(() => {
    expect(SANDBOX.kind, SANDBOX.reason).toBe('bwrap');
    base = realpathSync(mkdtempSync(join(tmpdir(), 'colony-sbx-')));
    wt = join(base, 'wt');
    mkdirSync(join(wt, 'src'), { recursive: true });
    mkdirSync(join(base, 'outside'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const run = (command: string, policy: SandboxPolicy = closed, timeoutMs = 10_000) =>
    runCommand(join(wt, 'src'), command, { timeoutMs, sandbox: { policy, root: wt } });

  it('writes inside the worktree', async () => {
    const out = await run('echo made > ../inside.txt && cat ../inside.txt');
    expect(out).toMatchObject({ exit_code: 0, stdout: 'made\n' });
    expect(readFileSync(join(wt, 'inside.txt'), 'utf8')).toBe('made\n');
  });

  it('cannot write outside the worktree: beside it, or anywhere on the read-only file system', async () => {
    const beside = await run(`echo x > ${join(base, 'outside', 'f.txt')}`);
    expect(beside.exit_code).not.toBe(0);
    expect(existsSync(join(base, 'outside', 'f.txt'))).toBe(false);
    const target = `/var/tmp/colony-sbx-${process.pid}`;
    const system = await run(`echo x > ${target}`);
    expect(system.exit_code).not.toBe(0);
    expect(system.stderr).toMatch(/Read-only file system/);
    expect(existsSync(target)).toBe(false);
  });

  it('has a private /tmp', async () => {
    writeFileSync(join(base, 'host-file'), 'x');
    const out = await run(`echo t > /tmp/private && ls /tmp && ls ${base}`);
    expect(out.exit_code).toBe(0);
    expect(out.stdout).not.toContain('host-file');
    expect(existsSync('/tmp/private')).toBe(false);
  });

  it('gives a command whose $TMPDIR lies under /tmp that folder, private: mktemp works', async () => {
    const inner = `/tmp/colony-sbx-user-${process.pid}/1000`;
    const out = await runCommand(join(wt, 'src'), 'f=$(mktemp) && echo ok > "$f" && cat "$f" && echo "$f"', {
      timeoutMs: 10_000,
      sandbox: { policy: closed, root: wt },
      env: { TMPDIR: inner },
    });
    expect(out.exit_code, out.stderr).toBe(0);
    expect(out.stdout.startsWith(`ok\n${inner}/tmp.`)).toBe(true);
    expect(existsSync(dirname(inner))).toBe(false);
  });

  it('reaches no network unless allow_network', async () => {
    const { port, server } = await pongServer();
    try {
      const blocked = await run(connectCommand(port));
      expect(blocked.exit_code).toBe(3);
      expect(blocked.stdout).toMatch(/ECONNREFUSED|ENETUNREACH/);
      const open = await run(connectCommand(port), { ...closed, allow_network: true });
      expect(open).toMatchObject({ exit_code: 0, stdout: 'pong\n' });
    } finally {
      server.close();
    }
  });

  it('kills the whole process group on timeout', async () => {
    let pgid = 0;
    const out = await runCommand(wt, 'sleep 30 & sleep 30', {
      timeoutMs: 300,
      sandbox: { policy: closed, root: wt },
      onSpawn: (g) => {
        pgid = g;
      },
    });
    expect(out.timed_out).toBe(true);
    expect(pgid).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(members(pgid)).toEqual([]);
  });

  it('commits in a linked worktree (its git folders are writable)', async () => {
    const repo = tempRepo();
    try {
      const linked = join(repo.root, '.colony', 'wt', 'agent');
      sh(repo.root, 'worktree', 'add', '-q', '-b', 'agent', linked);
      const env = 'GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t';
      const out = await runCommand(linked, `echo hi > hi.txt && git add hi.txt && ${env} git commit -qm hi`, {
        timeoutMs: 10_000,
        sandbox: { policy: closed, root: linked },
      });
      expect(out.stderr).toBe('');
      expect(out.exit_code).toBe(0);
      expect(sh(repo.root, 'log', '-1', '--format=%s', 'agent')).toBe('hi');
    } finally {
      repo.cleanup();
    }
  });

  it('runs exec_parallel commands in the sandbox when configured', async () => {
    const repo = tempRepo();
    const { port, server } = await pongServer();
    try {
      const r = await openRepo(repo.root);
      const [ws] = await forkWorkspaces(r, 'HEAD', ['one']);
      const id = ws?.workspace_id as string;
      const outside = join(base, 'outside', 'exec.txt');
      const commands = ['echo in > in.txt', `echo out > ${outside}`, connectCommand(port)];
      const ids = [id, id, id];
      const spec = { workspace_ids: ids, commands, timeout_secs: 10 };
      const sandboxed = await execParallel({ ...spec, sandbox: closed }, await resolveAll(ids, r));
      expect(sandboxed.results.map((x) => x.exit_code === 0)).toEqual([true, false, false]);
      expect(readFileSync(join(id, 'in.txt'), 'utf8')).toBe('in\n');
      expect(existsSync(outside)).toBe(false);
      // Not configured: the same commands run on the host.
      const plain = await execParallel(spec, await resolveAll(ids, r));
      expect(plain.results.map((x) => x.exit_code)).toEqual([0, 0, 0]);
      expect(existsSync(outside)).toBe(true);
    } finally {
      server.close();
      repo.cleanup();
    }
  });
});
