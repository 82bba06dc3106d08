/**
 * Confinement is the server's choice, not the caller's, over the real wire: colony-mcp
 * processes driven by the MCP SDK client. File tools work only under the roots the
 * server allows (--root, else the repository of its working directory): a repo_root
 * naming the data home or any other folder is ROOT_NOT_ALLOWED, so the HTTP bearer token
 * cannot be read and no folder can be written by naming it. Only the arbiter configured
 * with --arbiter may decide on writes. Tools that use repo_root only as a key (threads)
 * keep taking any value. Roots allowed in settings.json count as --root; the OMX notepad
 * pointer (a file write under the thread's repo_root) is written only under them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type Server, startServer, tempDir } from './_harness';

let home: string;
let repo: string;
let closed: Server;
let open: Server;
let contract: Server;
let noArbiter: Server;

beforeAll(async () => {
  home = tempDir('colony-home-');
  writeFileSync(join(home, 'mcp-http-token'), 'secret-token\n');
  repo = join(tempDir(), 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'SPEC.md'), '# S\n\n## §G goal\n\nx\n');
  const db = join(home, 'colony.db');
  const base = { db, home, toolset: 'framework' as const };
  [closed, open, contract, noArbiter] = await Promise.all([
    startServer({ ...base, roots: false, flags: ['--allow-write', '--arbiter', 'Arbiter'] }),
    startServer({ ...base, roots: [repo], flags: ['--allow-write', '--arbiter', 'Arbiter'] }),
    startServer({ db, home, roots: false }),
    startServer({ ...base, roots: [repo], flags: ['--allow-write'] }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([closed, open, contract, noArbiter].map((s) => s?.close()));
});

describe('roots the server allows', () => {
  it('refuses fs_read of the data home: the bearer token stays unread', async () => {
    const r = await closed.call('fs_read', { agent: 'x', repo_root: home, path: 'mcp-http-token' });
    expect(r.isError, r.text).toBe(true);
    expect(r.payload).toMatchObject({ code: 'ROOT_NOT_ALLOWED' });
    expect(r.text).not.toContain('secret-token');
  });

  it('refuses fs_write and fs_list under a folder the server does not allow', async () => {
    const write = await closed.call('fs_write', { agent: 'x', repo_root: repo, path: 'evil.md', content: 'x' });
    expect(write.payload).toMatchObject({ code: 'ROOT_NOT_ALLOWED' });
    const list = await closed.call('fs_list', { agent: 'x', repo_root: '/' });
    expect(list.payload).toMatchObject({ code: 'ROOT_NOT_ALLOWED' });
  });

  it('serves the repository of its working directory by default', async () => {
    const r = await closed.call('fs_read', { agent: 'x', repo_root: REPO_ROOT, path: 'AGENTS.md' });
    expect(r.isError, r.text).toBe(false);
  });

  it('refuses the spec tools outside the roots, and keeps threads keyed by any repo_root', async () => {
    const spec = await contract.call('spec_read', { repo_root: repo });
    expect(spec.payload).toMatchObject({ code: 'ROOT_NOT_ALLOWED' });
    const thread = await contract.call('task_thread', {
      repo_root: repo,
      branch: 'main',
      session_id: 's-1',
      agent: 'a',
    });
    expect(thread.isError, thread.text).toBe(false);
  });
});

describe('the arbiter configured at start', () => {
  it('alone may decide: another agent is ACCESS_DENIED and nothing is written', async () => {
    await open.call('fs_write', { agent: 'Claude', repo_root: repo, path: 'a.md', content: 'A' });
    const mallory = await open.call('arbiter_decide', {
      agent: 'Mallory',
      repo_root: repo,
      decisions: [{ path: 'a.md', action: 'approve' }],
    });
    expect(mallory.payload).toMatchObject({ code: 'ACCESS_DENIED' });
    expect(existsSync(join(repo, 'a.md'))).toBe(false);
    const arbiter = await open.call('arbiter_decide', {
      agent: 'Arbiter',
      repo_root: repo,
      decisions: [{ path: 'a.md', action: 'approve' }],
    });
    expect(arbiter.payload).toMatchObject({ results: [{ status: 'applied' }], writes_allowed: true });
    expect(existsSync(join(repo, 'a.md'))).toBe(true);
  });

  it('without one, --allow-write records approvals but applies none', async () => {
    await noArbiter.call('fs_write', { agent: 'Claude', repo_root: repo, path: 'b.md', content: 'B' });
    const decided = await noArbiter.call('arbiter_decide', {
      agent: 'Anyone',
      repo_root: repo,
      decisions: [{ path: 'b.md', action: 'approve' }],
    });
    expect(decided.payload).toMatchObject({
      results: [{ status: 'approved', code: 'WRITES_NOT_ALLOWED' }],
      writes_allowed: false,
    });
    expect(existsSync(join(repo, 'b.md'))).toBe(false);
  });
});

describe('roots the client declares (roots/list)', () => {
  it('confine the file tools to them, in place of the working directory, and follow list_changed', async () => {
    const first = join(tempDir(), 'first');
    const second = join(tempDir(), 'second');
    for (const dir of [first, second]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'note.md'), `in ${dir}`);
    }
    let declared = [first];
    const client = await startServer({
      db: join(home, 'roots.db'),
      home,
      toolset: 'framework',
      roots: false,
      clientRoots: () => declared,
    });
    try {
      const inside = await client.call('fs_read', { agent: 'x', repo_root: first, path: 'note.md' });
      expect(inside.isError, inside.text).toBe(false);
      expect(inside.text).toContain(`in ${first}`);
      // The client's roots replace the server's cwd fallback: its own repository is refused now.
      const cwd = await client.call('fs_read', { agent: 'x', repo_root: REPO_ROOT, path: 'AGENTS.md' });
      expect(cwd.payload).toMatchObject({ code: 'ROOT_NOT_ALLOWED' });
      const other = await client.call('fs_read', { agent: 'x', repo_root: second, path: 'note.md' });
      expect(other.payload).toMatchObject({ code: 'ROOT_NOT_ALLOWED' });
      declared = [second];
      await client.client.sendRootsListChanged();
      const moved = await client.call('fs_read', { agent: 'x', repo_root: second, path: 'note.md' });
      expect(moved.isError, moved.text).toBe(false);
      const gone = await client.call('fs_read', { agent: 'x', repo_root: first, path: 'note.md' });
      expect(gone.payload).toMatchObject({ code: 'ROOT_NOT_ALLOWED' });
    } finally {
      await client.close();
    }
  });
});

describe('roots from settings.json', () => {
  let allowed: string;
  let outside: string;
  let server: Server;

  beforeAll(async () => {
    const settingsHome = tempDir('colony-home-');
    allowed = join(tempDir(), 'allowed');
    outside = join(tempDir(), 'outside');
    for (const dir of [allowed, outside]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'SPEC.md'), '# S\n\n## §G goal\n\nx\n');
    }
    writeFileSync(
      join(settingsHome, 'settings.json'),
      JSON.stringify({ roots: [allowed], bridge: { writeOmxNotepadPointer: true } }),
    );
    server = await startServer({ db: join(settingsHome, 'colony.db'), home: settingsHome, roots: false });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  const notepad = (repo: string) => join(repo, '.omx', 'notepad.md');

  it('allow the file tools under them, and no other folder', async () => {
    const inside = await server.call('spec_read', { repo_root: allowed });
    expect(inside.isError, inside.text).toBe(false);
    const refused = await server.call('spec_read', { repo_root: outside });
    expect(refused.payload).toMatchObject({
      code: 'ROOT_NOT_ALLOWED',
      allowed_roots: expect.arrayContaining([allowed]),
    });
  });

  it('let the notepad pointer be written under an allowed root', async () => {
    await server.call('task_thread', { repo_root: allowed, branch: 'main', session_id: 'in-1', agent: 'codex' });
    const note = await server.call('task_note_working', { session_id: 'in-1', content: 'next=run tests' });
    expect(note.isError, note.text).toBe(false);
    expect(note.payload.omx_notepad_path).toBe(notepad(allowed));
    expect(readFileSync(notepad(allowed), 'utf8')).toContain('next=run tests');
  });

  it('refuse the notepad pointer outside them with ROOT_NOT_ALLOWED: the note is saved, no file is written', async () => {
    await server.call('task_thread', { repo_root: outside, branch: 'main', session_id: 'out-1', agent: 'codex' });
    const note = await server.call('task_note_working', { session_id: 'out-1', content: 'next=escape' });
    expect(note.isError, note.text).toBe(false);
    expect(note.payload.observation_id).toBeGreaterThan(0);
    expect(note.payload).not.toHaveProperty('omx_notepad_path');
    expect(note.payload.warning).toMatch(/^note saved; OMX notepad pointer not written: ROOT_NOT_ALLOWED: /);
    expect(existsSync(join(outside, '.omx'))).toBe(false);
  });

  it('refuse the fallback pointer outside them too (no active task, allow_omx_notepad_fallback)', async () => {
    const note = await server.call('task_note_working', {
      session_id: 'nobody',
      repo_root: outside,
      content: 'next=escape',
      allow_omx_notepad_fallback: true,
    });
    expect(note.payload).toMatchObject({ code: 'ACTIVE_TASK_NOT_FOUND' });
    expect(note.payload.omx_notepad_warning).toMatch(/^OMX notepad pointer not written: ROOT_NOT_ALLOWED: /);
    expect(existsSync(join(outside, '.omx'))).toBe(false);
  });
});
