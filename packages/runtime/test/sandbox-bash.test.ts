/**
 * Agent bash under the OS sandbox (bubblewrap on this Linux machine): writing the
 * worktree works, writing beside it fails, a connection to a server the test started on
 * 127.0.0.1 fails unless allow_network. Skipped with the detector's reason where
 * bubblewrap cannot run, except under CI=true (see the worktree package's _sandbox.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSandbox, type SandboxPolicy } from '@swarm/worktree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTools, memoryMailbox } from '../src/index.js';

const found = detectSandbox();
const skip = found.kind !== 'bwrap' && process.env.CI !== 'true';
if (skip) console.warn(`agent sandbox tests skipped: ${found.reason}`);
const signal = new AbortController().signal;

describe.skipIf(skip)('agent bash in the sandbox', () => {
  let base: string;
  let wt: string;
  beforeAll(() => {
    expect(found.kind, found.reason).toBe('bwrap');
    base = realpathSync(mkdtempSync(join(tmpdir(), 'agent-sbx-')));
    wt = join(base, 'wt');
    mkdirSync(wt);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const bash = (command: string, policy: SandboxPolicy) =>
    agentTools({
      worktree: wt,
      agent: 'backend',
      colony_session_id: 'swarm-x-backend',
      env: { SWARM_AGENT_ID: 'backend' },
      mailbox: memoryMailbox(() => 0),
      sandbox: policy,
    }).executor.execute({ id: 't', name: 'bash', input: { command, timeout_secs: 10 } }, { signal });
  const closed: SandboxPolicy = { mode: 'auto', allow_network: false, writable: [] };

  it('writes inside the worktree and not outside it', async () => {
    const inside = await bash('echo ok > mine.txt', closed);
    expect(inside.is_error).toBe(false);
    expect(readFileSync(join(wt, 'mine.txt'), 'utf8')).toBe('ok\n');
    // Outside the worktree the file system is read-only...
    const target = `/var/tmp/agent-sbx-${process.pid}.txt`;
    const outside = await bash(`echo no > ${target}`, closed);
    expect(outside.is_error).toBe(true);
    expect(outside.content).toContain('Read-only file system');
    expect(existsSync(target)).toBe(false);
    // ...and /tmp is private: a write beside the worktree never reaches the host.
    await bash(`echo no > ${join(base, 'escape.txt')}`, closed);
    expect(existsSync(join(base, 'escape.txt'))).toBe(false);
    // The same command without the sandbox does write there: the refusal is the sandbox's.
    expect((await bash(`echo no > ${join(base, 'escape.txt')}`, { ...closed, mode: 'off' })).is_error).toBe(false);
    expect(existsSync(join(base, 'escape.txt'))).toBe(true);
  });

  it('cannot open a network connection unless allowed', async () => {
    const server = createServer((socket) => socket.end('pong'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    const script = `require('net').connect(${port},'127.0.0.1').on('data',d=>{console.log(String(d));process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(3)})`;
    // The sandbox's /tmp is private: a Node kept under /tmp (test:lts) is not visible inside.
    const node =
      process.execPath.startsWith('/tmp/') && existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
    const command = `'${node}' -e "${script}"`;
    try {
      const blocked = await bash(command, closed);
      expect(blocked.is_error).toBe(true);
      expect(blocked.content).toMatch(/exit code 3[\s\S]*ECONNREFUSED/);
      const allowed = await bash(command, { ...closed, allow_network: true });
      expect(allowed.content).toContain('pong');
      expect(allowed.is_error).toBe(false);
    } finally {
      server.close();
    }
  });
});
