/**
 * The seed-000 surface as a library: every framework tool through openColony's
 * handleToolCall, the framework toolset and its schema exports, allow-write and
 * rate-limit configuration, and the Orchestrator running replies end to end.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Colony,
  formatTurnReport,
  manualClock,
  type OpenColonyOptions,
  Orchestrator,
  openColony,
  SETTINGS_FILE,
  type ToolCaller,
} from '../src/index';

const START = Date.UTC(2026, 0, 1);
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setUp(options: OpenColonyOptions = {}): { colony: Colony; repo: string; home: string } {
  const home = mkdtempSync(join(tmpdir(), 'colony-swarm-'));
  const repo = join(home, 'repo');
  mkdirSync(join(repo, 'scripts'), { recursive: true });
  writeFileSync(join(repo, 'scripts', 'ai_swarm.py'), 'import sys\n\ndef main():\n    pass\n');
  writeFileSync(join(repo, '.gitignore'), '*.log\n');
  const colony = openColony({ home, clock: manualClock(START), roots: [home], arbiter: 'Arbiter', ...options });
  cleanups.push(async () => {
    await colony.close();
    rmSync(home, { recursive: true, force: true });
  });
  return { colony, repo, home };
}

// biome-ignore lint/suspicious/noExplicitAny: tool answers are asserted field by field
type Answer = Record<string, any>;

async function ok(colony: Colony, name: string, args: Record<string, unknown>): Promise<Answer> {
  const outcome = await colony.handleToolCall(name, args);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.text}`);
  return outcome.value as Answer;
}

describe('every framework tool through handleToolCall', () => {
  it('answers the seed shapes, from listing files to completing a work item', async () => {
    const { colony, repo } = setUp({ allowWrite: true });
    const A = { agent: 'Gemini', repo_root: repo };
    expect(await ok(colony, 'fs_list', { ...A, dir: '.', pattern: 'py$', max_results: 200 })).toEqual({
      files: [],
      count: 0,
    });
    expect(await ok(colony, 'fs_list', { ...A, pattern: 'regex:py$' })).toEqual({
      files: ['scripts/ai_swarm.py'],
      count: 1,
    });
    expect(await ok(colony, 'fs_read', { ...A, path: 'scripts/ai_swarm.py', max_bytes: 50000 })).toMatchObject({
      path: 'scripts/ai_swarm.py',
      bytes: 33,
    });
    expect(await ok(colony, 'search_text', { ...A, pattern: 'def main', dir: 'scripts', max_matches: 50 })).toEqual({
      matches: [{ file: 'scripts/ai_swarm.py', line: 3, text: 'def main():' }],
      count: 1,
    });
    const proposal = await ok(colony, 'fs_write', { ...A, path: 'docs/notes.md', content: 'Hello', create_dirs: true });
    expect((await ok(colony, 'fs_proposals', { ...A, agent: 'Arbiter' })).proposals).toHaveLength(1);
    expect(
      await ok(colony, 'arbiter_decide', {
        ...A,
        agent: 'Arbiter',
        decisions: [{ path: 'docs/notes.md', action: 'approve', notes: 'ok' }],
      }),
    ).toEqual({
      results: [{ path: 'docs/notes.md', proposal_id: proposal.proposal_id, status: 'applied' }],
      writes_allowed: true,
    });
    expect(readFileSync(join(repo, 'docs/notes.md'), 'utf8')).toBe('Hello');

    expect(await ok(colony, 'ctx_put', { agent: 'Gemini', key: 'Gemini.t', value: { ok: true } })).toEqual({
      ok: true,
      key: 'Gemini.t',
      version: 1,
    });
    expect(await ok(colony, 'ctx_get', { agent: 'Claude', key: 'Gemini.t' })).toEqual({
      key: 'Gemini.t',
      value: { ok: true },
      version: 1,
    });
    expect(await ok(colony, 'ctx_keys', { agent: 'Claude', prefix: 'Gemini.' })).toEqual({ keys: ['Gemini.t'] });

    const { id } = await ok(colony, 'coord_enqueue', { agent: 'O', kind: 'scan_docs', payload: { dir: 'docs' } });
    expect((await ok(colony, 'coord_claim', { agent: 'Gemini', id, lease_sec: 60 })).lease_until).toBe(START + 60_000);
    expect((await ok(colony, 'coord_extend', { agent: 'Gemini', id, extend_sec: 60 })).lease_until).toBe(
      START + 120_000,
    );
    expect(await ok(colony, 'coord_next', { agent: 'Claude' })).toEqual({ item: null });
    expect(await ok(colony, 'coord_complete', { agent: 'Gemini', id, result: { ok: true } })).toEqual({
      id,
      status: 'done',
    });
    expect(await ok(colony, 'coord_status', { agent: 'O' })).toEqual({
      length: 0,
      front: null,
      counts: { queued: 0, claimed: 0, done: 1 },
      phase: 0,
    });
  });
});

describe('the framework toolset', () => {
  it('is outside all and core, reachable without a toolset, and exported as function schemas', async () => {
    const { colony, repo } = setUp();
    const args = { agent: 'Gemini', repo_root: repo };
    expect((await colony.handleToolCall('fs_list', args, { toolset: 'framework' })).ok).toBe(true);
    for (const toolset of ['all', 'core'] as const) {
      const refused = await colony.handleToolCall('fs_list', args, { toolset });
      expect(refused.ok ? null : refused.error.code).toBe('UNKNOWN_TOOL');
    }
    const refused = await colony.handleToolCall('task_list', {}, { toolset: 'framework' });
    expect(refused.ok ? null : refused.error.code).toBe('UNKNOWN_TOOL');
    const names = colony.toOpenAITools('framework').map((t) => t.function.name);
    expect(names).toEqual([
      'fs_list',
      'fs_read',
      'search_text',
      'fs_write',
      'fs_proposals',
      'arbiter_decide',
      'ctx_put',
      'ctx_get',
      'ctx_keys',
      'coord_enqueue',
      'coord_next',
      'coord_status',
      'coord_claim',
      'coord_complete',
      'coord_extend',
      'get_context',
      'push_context',
      'list_context_keys',
      'send_message_to_agent',
      'get_messages_from_agents',
      'broadcast_message_to_agents',
      'batch_context_operation',
    ]);
    expect(colony.toAnthropicTools('framework').map((t) => t.name)).toEqual(names);
    expect(colony.toOpenAITools().map((t) => t.function.name)).not.toContain('fs_list');
  });
});

describe('configuration', () => {
  it('allows writes from the option, else from COLONY_ALLOW_WRITE=1, else not', () => {
    const saved = process.env.COLONY_ALLOW_WRITE;
    cleanups.push(() => {
      if (saved === undefined) delete process.env.COLONY_ALLOW_WRITE;
      else process.env.COLONY_ALLOW_WRITE = saved;
    });
    delete process.env.COLONY_ALLOW_WRITE;
    expect(setUp().colony.allowWrite).toBe(false);
    process.env.COLONY_ALLOW_WRITE = '1';
    expect(setUp().colony.allowWrite).toBe(true);
    expect(setUp({ allowWrite: false }).colony.allowWrite).toBe(false);
    process.env.COLONY_ALLOW_WRITE = 'yes';
    expect(setUp().colony.allowWrite).toBe(false);
  });

  it('reads rate limits from settings.json, the option winning', async () => {
    const home = mkdtempSync(join(tmpdir(), 'colony-swarm-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    writeFileSync(
      join(home, SETTINGS_FILE),
      JSON.stringify({ rateLimits: { ctx_get: { limit: 1, window_sec: 60 }, ctx_keys: { limit: 1, window_sec: 60 } } }),
    );
    const colony = openColony({ home, clock: manualClock(START), rateLimits: { ctx_keys: false } });
    cleanups.push(() => colony.close());
    expect(colony.warnings).toEqual([]);
    await ok(colony, 'ctx_get', { agent: 'a', key: 'k' });
    const refused = await colony.handleToolCall('ctx_get', { agent: 'a', key: 'k' });
    expect(refused.ok ? null : refused.error).toMatchObject({ error: 'rate_limited', code: 429, limit: 1 });
    for (let i = 0; i < 5; i++) await ok(colony, 'ctx_keys', { agent: 'a' });
  });
});

describe('Orchestrator', () => {
  const REPLY = `Rationale: read the entry point, then propose notes.

\`\`\`json
{"tool_calls": [
  {"name": "fs_read", "args": {"path": "scripts/ai_swarm.py"}},
  {"name": "search_text", "args": {"pattern": "def main"}},
  {"name": "fs_write", "args": {"path": "docs/notes.md", "content": "Entry point: scripts/ai_swarm.py"}}
]}
\`\`\`

And a broken one: {"tool_calls": [ {"name": "ctx_get", "args": {"key": "phase"} ]}`;

  it('runs a reply: reads answered, the write queued as a proposal, broken JSON reported', async () => {
    const { colony, repo } = setUp();
    const orchestrator = new Orchestrator({ colony, agent: 'Claude', repoRoot: repo });
    const report = await orchestrator.handleReply(REPLY);
    expect(report.calls.map((c) => [c.name, c.read_only, c.ok])).toEqual([
      ['fs_read', true, true],
      ['search_text', true, true],
      ['fs_write', false, true],
    ]);
    expect(report.errors).toMatchObject([{ error: 'parse_error', line: 11 }]);
    expect(report.proposals).toHaveLength(1);
    expect(existsSync(join(repo, 'docs/notes.md'))).toBe(false);
    const transcript = JSON.parse(formatTurnReport(report));
    expect(transcript.tool_results[2]).toMatchObject({ name: 'fs_write', ok: true, result: { status: 'pending' } });
    expect(transcript.errors).toHaveLength(1);
  });

  it('sets agent and repo_root itself, whatever the reply claims', async () => {
    const { colony, repo } = setUp();
    const orchestrator = new Orchestrator({ colony, agent: 'Claude', repoRoot: repo });
    const report = await orchestrator.handleReply(
      JSON.stringify({
        tool_calls: [
          { name: 'fs_read', args: { path: '/etc/hostname', repo_root: '/', agent: 'Arbiter' } },
          { name: 'ctx_put', args: { key: 'who', value: 1, agent: 'Arbiter' } },
          { name: 'fs_write', args: { path: 'x.md', content: 'x', repo_root: '/tmp' } },
        ],
      }),
    );
    expect(report.calls[0]!.error).toMatchObject({ code: 'PATH_OUTSIDE_REPO' });
    expect(report.calls[1]!.ok).toBe(true);
    const proposals = await ok(colony, 'fs_proposals', { agent: 'Arbiter', repo_root: repo });
    expect(proposals.proposals).toMatchObject([{ path: 'x.md', agent: 'Claude' }]);
  });

  it('runs consecutive reads together and each write alone, in reply order', async () => {
    const { colony, repo } = setUp();
    const log: string[] = [];
    const traced: ToolCaller = {
      registry: colony.registry,
      async handleToolCall(name, args, options) {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const outcome = await colony.handleToolCall(name, args, options);
        log.push(`end ${name}`);
        return outcome;
      },
    };
    const orchestrator = new Orchestrator({ colony: traced, agent: 'Claude', repoRoot: repo });
    const report = await orchestrator.run([
      { name: 'ctx_get', args: { key: 'k' } },
      { name: 'ctx_keys', args: {} },
      { name: 'ctx_put', args: { key: 'k', value: 1 } },
      { name: 'ctx_get', args: { key: 'k' } },
      { name: 'coord_status', args: {} },
      { name: 'ctx_put', args: { key: 'k', value: 2 } },
      { name: 'ctx_get', args: { key: 'k' } },
    ]);
    expect(log).toEqual([
      'start ctx_get',
      'start ctx_keys',
      'end ctx_get',
      'end ctx_keys',
      'start ctx_put',
      'end ctx_put',
      'start ctx_get',
      'start coord_status',
      'end ctx_get',
      'end coord_status',
      'start ctx_put',
      'end ctx_put',
      'start ctx_get',
      'end ctx_get',
    ]);
    const values = report.filter((c) => c.name === 'ctx_get').map((c) => (c.result as { value: unknown }).value);
    expect(values).toEqual([null, 1, 2]);
  });

  it('keeps the model to the framework toolset', async () => {
    const { colony, repo } = setUp();
    const orchestrator = new Orchestrator({ colony, agent: 'Claude', repoRoot: repo });
    const [contract, unknown] = await orchestrator.run([
      { name: 'task_list', args: {} },
      { name: 'rm_rf', args: {} },
    ]);
    expect(contract!.error).toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(unknown!.error).toMatchObject({ code: 'UNKNOWN_TOOL' });
  });

  it('applies an arbiter reply only when it is strict JSON, and writes only when allowed', async () => {
    for (const allowWrite of [false, true]) {
      const { colony, repo } = setUp({ allowWrite });
      await new Orchestrator({ colony, agent: 'Claude', repoRoot: repo }).handleReply(REPLY);
      const arbiter = new Orchestrator({ colony, agent: 'Arbiter', repoRoot: repo });
      const loose = await arbiter.decide(
        'Sure! {"decisions": [{"path": "docs/notes.md", "action": "approve", "notes": "ok"}]}',
      );
      expect(loose).toMatchObject({ ok: false, parse_error: expect.stringMatching(/not strict JSON/) });
      const extra = await arbiter.decide('{"decisions": [], "summary": "fine"}');
      expect(extra).toMatchObject({ ok: false, parse_error: expect.stringMatching(/only "decisions"/) });
      const decided = await arbiter.decide(
        '```json\n{"decisions": [{"path": "docs/notes.md", "action": "approve", "notes": "ok"}]}\n```',
      );
      expect(decided).toMatchObject({
        ok: true,
        result: { results: [{ status: allowWrite ? 'applied' : 'approved' }] },
      });
      expect(existsSync(join(repo, 'docs/notes.md'))).toBe(allowWrite);
    }
  });
});
