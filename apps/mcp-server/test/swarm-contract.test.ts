/**
 * Seed-000 contract fidelity over the real wire: colony-mcp processes with
 * `--toolset framework`, driven by the MCP SDK client over stdio. coord_enqueue takes an
 * object payload only; under --allow-write each arbiter decision stands on its own; the
 * `.git` guard of the file tools holds for every spelling a case-insensitive (or
 * Windows, or HFS+) file system folds onto `.git`, and through a symlink.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tempDir } from './_harness';

let dir: string;
let repo: string;
let server: Server;

beforeAll(async () => {
  dir = tempDir();
  repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), '[core]\n');
  symlinkSync(join(repo, '.git'), join(repo, 'gitlink'));
  writeFileSync(join(repo, 'readme.md'), 'hello\n');
  server = await startServer({
    db: join(dir, 'colony.db'),
    home: dir,
    toolset: 'framework',
    flags: ['--allow-write', '--root', repo, '--arbiter', 'Arbiter'],
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('coord_enqueue', () => {
  it('refuses a payload that is not an object, and takes an object', async () => {
    for (const payload of [[1, 2], 'scan', 7, null, true]) {
      const r = await server.call('coord_enqueue', { agent: 'O', kind: 'scan', payload });
      expect(r.isError, JSON.stringify(payload)).toBe(true);
      expect(r.payload).toMatchObject({ code: 'INVALID_PARAMETERS', fields: ['payload'] });
    }
    const ok = await server.call('coord_enqueue', { agent: 'O', kind: 'scan', payload: { dir: 'docs' } });
    expect(ok.payload).toMatchObject({ enqueued: true, kind: 'scan' });
  });
});

describe('arbiter_decide under --allow-write', () => {
  it('applies the valid decision of a batch whose other decisions escape the workspace', async () => {
    const proposed = await server.call('fs_write', {
      agent: 'Claude',
      repo_root: repo,
      path: 'inside.md',
      content: 'in',
    });
    expect(proposed.isError, proposed.text).toBe(false);
    const decided = await server.call('arbiter_decide', {
      agent: 'Arbiter',
      repo_root: repo,
      decisions: [
        { path: '../escape-1.md', action: 'approve' },
        { path: join(dir, 'escape-2.md'), action: 'approve' },
        { path: 'inside.md', action: 'approve' },
      ],
    });
    expect(decided.isError, decided.text).toBe(false);
    expect(decided.payload.results).toEqual([
      expect.objectContaining({ status: 'failed', code: 'PATH_OUTSIDE_REPO', proposal_id: null }),
      expect.objectContaining({ status: 'failed', code: 'PATH_OUTSIDE_REPO', proposal_id: null }),
      expect.objectContaining({ path: 'inside.md', status: 'applied' }),
    ]);
    expect(readFileSync(join(repo, 'inside.md'), 'utf8')).toBe('in');
    expect(existsSync(join(dir, 'escape-1.md'))).toBe(false);
  });

  it('still refuses a batch in which no decision can be acted on', async () => {
    const r = await server.call('arbiter_decide', {
      agent: 'Arbiter',
      repo_root: repo,
      decisions: [{ path: 'never-proposed.md', action: 'approve' }],
    });
    expect(r.payload).toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });
  });
});

describe('the .git guard', () => {
  const spellings = [
    '.GIT/config',
    '.Git/hooks/pre-commit',
    '.git./config',
    '.git /config',
    'GIT~1/config',
    '.g\u200cit/config',
  ];

  it.each(spellings)('refuses fs_write to %s', async (path) => {
    const r = await server.call('fs_write', { agent: 'Claude', repo_root: repo, path, content: 'x' });
    expect(r.isError, r.text).toBe(true);
    expect(r.payload).toMatchObject({ code: 'PATH_IGNORED' });
  });

  it('refuses reads and writes through a symlink into .git', async () => {
    const read = await server.call('fs_read', { agent: 'Claude', repo_root: repo, path: 'gitlink/config' });
    expect(read.payload).toMatchObject({ code: 'PATH_IGNORED' });
    const write = await server.call('fs_write', {
      agent: 'Claude',
      repo_root: repo,
      path: 'gitlink/hooks/x',
      content: 'x',
    });
    expect(write.payload).toMatchObject({ code: 'PATH_IGNORED' });
  });
});
