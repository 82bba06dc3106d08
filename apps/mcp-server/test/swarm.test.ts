/**
 * The seed-000 tools over MCP: a real colony-mcp process with `--toolset framework`,
 * driven by the MCP SDK client over stdio. Every tool names its caller in `agent`,
 * the file tools their workspace in `repo_root`; escapes are refused with a code;
 * writes land only with approval AND --allow-write; leases expire on the server's
 * clock (COLONY_CLOCK_FILE); rate limits answer the seed's 429 payload.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COLONY_TOOLS, MESH_TOOLS } from '@swarm/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, setClock, startServer, tempDir } from './_harness';

const T0 = Date.UTC(2026, 2, 1);

function workspace(dir: string): string {
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'scripts'), { recursive: true });
  writeFileSync(join(repo, 'scripts', 'ai_swarm.py'), 'def main():\n    pass\n');
  writeFileSync(join(repo, '.gitignore'), '*.log\n');
  writeFileSync(join(repo, 'run.log'), 'def main(): logged\n');
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(dir, 'outside', 'secret.txt'), 'secret\n');
  symlinkSync(join(dir, 'outside'), join(repo, 'link-out'));
  return repo;
}

describe('framework tools over MCP', () => {
  let server: Server;
  let dir: string;
  let repo: string;
  let clockFile: string;

  beforeAll(async () => {
    dir = tempDir();
    repo = workspace(dir);
    clockFile = join(dir, 'clock');
    setClock(clockFile, T0);
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ rateLimits: { ctx_keys: { limit: 2, window_sec: 60 } } }),
    );
    server = await startServer({ db: join(dir, 'colony.db'), home: dir, toolset: 'framework', clockFile });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists the fifteen tools, each requiring agent, the file tools repo_root', async () => {
    const { tools: listed } = await server.client.listTools();
    const framework = COLONY_TOOLS.filter((t) => t.surface === 'framework').map((t) => t.name);
    expect(listed.map((t) => t.name)).toEqual(framework);
    // The seed-001 tools share the toolset (test/mesh.test.ts); these are seed 000's.
    const seed001 = new Set(MESH_TOOLS.map((t) => t.name));
    const tools = listed.filter((t) => !seed001.has(t.name));
    expect(tools).toHaveLength(15);
    for (const tool of tools) {
      const required = tool.inputSchema.required ?? [];
      expect(required, tool.name).toContain('agent');
      if (/^(fs_|search_text|arbiter_)/.test(tool.name)) expect(required, tool.name).toContain('repo_root');
    }
  });

  it('reads the workspace as git sees it', async () => {
    const A = { agent: 'Gemini', repo_root: repo };
    const list = await server.call('fs_list', { ...A, pattern: 'regex:py$' });
    expect(list).toMatchObject({ isError: false, payload: { files: ['scripts/ai_swarm.py'], count: 1 } });
    const read = await server.call('fs_read', { ...A, path: 'scripts/ai_swarm.py', max_bytes: 9 });
    expect(read.payload).toEqual({
      path: 'scripts/ai_swarm.py',
      bytes: 9,
      content: 'def main(',
      truncated: true,
      size: 21,
    });
    const search = await server.call('search_text', { ...A, pattern: 'def main' });
    expect(search.payload).toEqual({
      matches: [{ file: 'scripts/ai_swarm.py', line: 1, text: 'def main():' }],
      count: 1,
    });
  });

  it.each([
    ['../outside/secret.txt', 'PATH_OUTSIDE_REPO'],
    ['/etc/passwd', 'PATH_OUTSIDE_REPO'],
    ['link-out/secret.txt', 'PATH_OUTSIDE_REPO'],
    ['scripts/\u0000x', 'INVALID_PARAMETERS'],
    [`${'d/'.repeat(2100)}x`, 'INVALID_PARAMETERS'],
    ['.git/config', 'PATH_IGNORED'],
    ['run.log', 'PATH_IGNORED'],
  ])('refuses %s with %s, for reads and proposals alike', async (path, code) => {
    const A = { agent: 'Mallory', repo_root: repo };
    const read = await server.call('fs_read', { ...A, path });
    const write = await server.call('fs_write', { ...A, path, content: 'pwned' });
    for (const answer of [read, write]) {
      expect(answer.isError).toBe(true);
      expect(answer.payload).toMatchObject({ code, tool: expect.any(String) });
    }
  });

  it('queues writes as proposals and, without --allow-write, applies none', async () => {
    const A = { agent: 'Claude', repo_root: repo };
    const proposal = await server.call('fs_write', { ...A, path: 'docs/notes.md', content: 'Hello' });
    expect(proposal.payload).toMatchObject({ status: 'pending', next_tool: 'arbiter_decide' });
    const pending = await server.call('fs_proposals', { ...A, agent: 'Arbiter' });
    expect(pending.payload).toMatchObject({ count: 1, writes_allowed: false });
    const decided = await server.call('arbiter_decide', {
      ...A,
      agent: 'Arbiter',
      decisions: [{ path: 'docs/notes.md', action: 'approve', notes: 'ok' }],
    });
    expect(decided.payload).toEqual({
      results: [
        {
          path: 'docs/notes.md',
          proposal_id: proposal.payload.proposal_id,
          status: 'approved',
          code: 'WRITES_NOT_ALLOWED',
        },
      ],
      writes_allowed: false,
    });
    expect(existsSync(join(repo, 'docs', 'notes.md'))).toBe(false);
    const missing = await server.call('arbiter_decide', {
      ...A,
      agent: 'Arbiter',
      decisions: [{ path: 'docs/notes.md', action: 'approve' }],
    });
    expect(missing).toMatchObject({ isError: true, payload: { code: 'PROPOSAL_NOT_FOUND' } });
  });

  it('shares versioned context and reports the phase', async () => {
    const put = await server.call('ctx_put', { agent: 'Orchestrator', key: 'phase', value: 3 });
    expect(put.payload).toEqual({ ok: true, key: 'phase', version: 1 });
    const stale = await server.call('ctx_put', {
      agent: 'Gemini',
      key: 'phase',
      value: 4,
      mode: 'if_version',
      expected_version: 0,
    });
    expect(stale).toEqual({
      isError: false,
      payload: { ok: false, error: 'version_mismatch', key: 'phase', version: 1 },
      text: stale.text,
    });
    expect((await server.call('ctx_get', { agent: 'Gemini', key: 'phase' })).payload).toEqual({
      key: 'phase',
      value: 3,
      version: 1,
    });
    expect((await server.call('coord_status', { agent: 'Gemini' })).payload.phase).toBe(3);
  });

  it('answers the seed rate_limited payload past the configured limit', async () => {
    for (let i = 0; i < 2; i++) expect((await server.call('ctx_keys', { agent: 'Grok' })).isError).toBe(false);
    const limited = await server.call('ctx_keys', { agent: 'Grok' });
    expect(limited.isError).toBe(true);
    expect(limited.payload).toEqual({
      error: 'rate_limited',
      code: 429,
      tool: 'ctx_keys',
      limit: 2,
      remaining: 0,
      reset_sec: 30,
      scope: 'Grok',
      timestamp: expect.any(String),
    });
    expect((await server.call('ctx_keys', { agent: 'Gemini' })).isError).toBe(false);
    setClock(clockFile, T0 + 30_000);
    expect((await server.call('ctx_keys', { agent: 'Grok' })).isError).toBe(false);
    setClock(clockFile, T0);
  });

  it('hands out work under leases that expire on the server clock', async () => {
    setClock(clockFile, T0);
    const { payload: item } = await server.call('coord_enqueue', {
      agent: 'O',
      kind: 'scan_docs',
      payload: { dir: 'docs' },
    });
    expect(item).toEqual({ enqueued: true, id: item.id, kind: 'scan_docs' });
    const taken = await server.call('coord_next', { agent: 'Gemini', lease_sec: 60 });
    expect(taken.payload.item).toEqual({
      id: item.id,
      kind: 'scan_docs',
      payload: { dir: 'docs' },
      lease_until: T0 + 60_000,
      claimed_by: 'Gemini',
    });
    expect((await server.call('coord_next', { agent: 'Claude' })).payload).toEqual({ item: null });
    const claimed = await server.call('coord_claim', { agent: 'Claude', id: item.id });
    expect(claimed.payload).toMatchObject({ code: 'ALREADY_CLAIMED', claimed_by: 'Gemini' });
    setClock(clockFile, T0 + 60_000);
    const retaken = await server.call('coord_next', { agent: 'Claude', lease_sec: 60 });
    expect(retaken.payload.item).toMatchObject({ id: item.id, claimed_by: 'Claude', lease_until: T0 + 120_000 });
    const late = await server.call('coord_complete', { agent: 'Gemini', id: item.id });
    expect(late).toMatchObject({ isError: true, payload: { code: 'LEASE_NOT_HELD', claimed_by: 'Claude' } });
    const extended = await server.call('coord_extend', { agent: 'Claude', id: item.id, extend_sec: 30 });
    expect(extended.payload).toEqual({ id: item.id, lease_until: T0 + 150_000 });
    expect(
      (await server.call('coord_complete', { agent: 'Claude', id: item.id, result: { ok: true } })).payload,
    ).toEqual({
      id: item.id,
      status: 'done',
    });
    const status = await server.call('coord_status', { agent: 'O' });
    expect(status.payload).toMatchObject({ length: 0, front: null, counts: { queued: 0, claimed: 0, done: 1 } });
    setClock(clockFile, T0);
  });
});

describe('allow-write', () => {
  async function approveOnce(server: Server, repo: string, path: string) {
    const A = { agent: 'Claude', repo_root: repo };
    await server.call('fs_write', { ...A, path, content: `content of ${path}` });
    return server.call('arbiter_decide', { ...A, agent: 'Arbiter', decisions: [{ path, action: 'approve' }] });
  }

  it('applies approved writes with colony-mcp --allow-write and with COLONY_ALLOW_WRITE=1', async () => {
    const dir = tempDir();
    const repo = workspace(dir);
    const db = join(dir, 'colony.db');
    const flagged = await startServer({
      db,
      home: dir,
      toolset: 'framework',
      flags: ['--allow-write', '--arbiter', 'Arbiter'],
    });
    const env = await startServer({
      db,
      home: dir,
      toolset: 'framework',
      env: { COLONY_ALLOW_WRITE: '1', COLONY_ARBITER: 'Arbiter' },
    });
    try {
      const a = await approveOnce(flagged, repo, 'a.md');
      const b = await approveOnce(env, repo, 'nested/b.md');
      expect(a.payload).toMatchObject({ results: [{ status: 'applied' }], writes_allowed: true });
      expect(b.payload).toMatchObject({ results: [{ status: 'applied' }], writes_allowed: true });
      expect(readFileSync(join(repo, 'a.md'), 'utf8')).toBe('content of a.md');
      expect(readFileSync(join(repo, 'nested', 'b.md'), 'utf8')).toBe('content of nested/b.md');
      const rejected = await flagged.call('fs_write', { agent: 'Claude', repo_root: repo, path: 'c.md', content: 'c' });
      expect(rejected.isError).toBe(false);
      await flagged.call('arbiter_decide', {
        agent: 'Arbiter',
        repo_root: repo,
        decisions: [{ path: 'c.md', action: 'reject', notes: 'no' }],
      });
      expect(existsSync(join(repo, 'c.md'))).toBe(false);
    } finally {
      await Promise.all([flagged.close(), env.close()]);
    }
  });

  it('applies approved writes with `colony mcp --allow-write` from the CLI', async () => {
    const dir = tempDir();
    const repo = workspace(dir);
    const server = await startServer({
      db: join(dir, 'colony.db'),
      home: dir,
      toolset: 'framework',
      flags: ['--allow-write', '--arbiter', 'Arbiter'],
      via: 'pnpm',
    });
    try {
      const decided = await approveOnce(server, repo, 'cli.md');
      expect(decided.payload).toMatchObject({ results: [{ status: 'applied' }] });
      expect(existsSync(join(repo, 'cli.md'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
