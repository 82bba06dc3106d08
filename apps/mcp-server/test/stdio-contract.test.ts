/**
 * The contract over the real wire: `pnpm colony mcp` spawned as a process, driven by
 * the MCP SDK client over stdio. Field names and error codes are the contract's.
 */
import { join } from 'node:path';
import { listReceipts } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { type Server, startServer, tempDir } from './_harness';

const REPO = '/abs/repo';
const BRANCH = 'agent/codex/live-task';

describe('colony MCP server over stdio (pnpm colony mcp)', () => {
  let dir: string;
  let db: string;
  let server: Server;
  let taskId: number;

  beforeAll(async () => {
    dir = tempDir();
    db = join(dir, 'colony.db');
    server = await startServer({ db, via: 'pnpm' });
    const claude = await server.call('task_thread', {
      repo_root: REPO,
      branch: BRANCH,
      session_id: 'claude-1',
      agent: 'claude',
    });
    expect(claude.isError).toBe(false);
    taskId = claude.payload.task_id;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('lists every foundation tool with a compact object schema', async () => {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'search',
        'get_observations',
        'timeline',
        'list_sessions',
        'recall_session',
        'task_thread',
        'task_list',
        'task_timeline',
        'task_updates_since',
        'task_post',
        'task_note_working',
      ]),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema).not.toHaveProperty('$schema');
    }
    const post = tools.find((t) => t.name === 'task_post');
    expect(post?.inputSchema.properties).not.toHaveProperty('idempotency_key');
  });

  it('opens one thread per repo_root+branch and lists both participants', async () => {
    const codex = await server.call('task_thread', {
      repo_root: `${REPO}/`,
      branch: BRANCH,
      session_id: 'codex-1',
      agent: 'codex',
    });
    expect(codex.payload).toMatchObject({ task_id: taskId, repo_root: REPO, branch: BRANCH, created: false });
    expect(codex.payload.participants).toEqual([
      { session_id: 'claude-1', agent: 'claude' },
      { session_id: 'codex-1', agent: 'codex' },
    ]);
  });

  it('posts every kind and returns { id, hint }', async () => {
    const kinds = [
      'question',
      'answer',
      'decision',
      'blocker',
      'note',
      'failed_approach',
      'blocked_path',
      'conflict_warning',
      'reverted_solution',
    ];
    for (const kind of kinds) {
      const r = await server.call('task_post', {
        task_id: taskId,
        session_id: 'claude-1',
        kind,
        content: `${kind}: websocket reconnect backoff in apps/api/src/ws.ts`,
      });
      expect(r.isError).toBe(false);
      expect(r.payload).toEqual({ id: expect.any(Number), hint: expect.any(String) });
    }
  });

  it('routes a directed post toward task_message and future work toward task_propose', async () => {
    const directed = await server.call('task_post', {
      task_id: taskId,
      session_id: 'claude-1',
      kind: 'note',
      content: 'codex, can you re-run the typecheck on your branch?',
    });
    expect(directed.payload).toMatchObject({
      route_to_task_message: true,
      misrouted_directed_coordination: true,
      replacement_tool: 'task_message',
      suggested_args: {
        task_id: taskId,
        to_agent: 'codex',
        content: 'codex, can you re-run the typecheck on your branch?',
      },
    });
    expect(directed.payload.hint).toContain('For directed agent coordination, use task_message.');
    const future = await server.call('task_post', {
      task_id: taskId,
      session_id: 'claude-1',
      kind: 'decision',
      content: 'Follow-up: later we should extract a shared ExamplesIndex helper.',
    });
    expect(future.payload.recommendation).toMatchObject({
      tool: 'task_propose',
      suggested_args: { repo_root: REPO, branch: BRANCH },
    });
  });

  it('search returns compact hits only; bodies come from get_observations', async () => {
    const hits = await server.call('search', { query: 'websocket backoff', limit: 5 });
    expect(hits.isError).toBe(false);
    expect(hits.payload.length).toBeGreaterThan(0);
    for (const hit of hits.payload) {
      // session_id and ts come with get_observations; task_id is left out for observations on no thread.
      expect(
        Object.keys(hit)
          .filter((k) => k !== 'task_id')
          .sort(),
      ).toEqual(['id', 'kind', 'score', 'snippet']);
      expect(hit.snippet.length).toBeLessThanOrEqual(66);
    }
    const negative = await server.call('search', { query: 'websocket', kind: 'failed_approach' });
    expect(negative.payload.map((h: { kind: string }) => h.kind)).toEqual(['failed_approach']);
    const ids = hits.payload.slice(0, 2).map((h: { id: number }) => h.id);
    const bodies = await server.call('get_observations', { ids });
    expect(bodies.payload.map((b: { id: number }) => b.id)).toEqual(ids);
    for (const body of bodies.payload) {
      expect(body).toEqual({
        id: expect.any(Number),
        session_id: 'claude-1',
        kind: expect.any(String),
        ts: expect.any(Number),
        task_id: taskId,
        content: expect.stringContaining('websocket'),
        metadata: null,
      });
    }
    const compressed = await server.call('get_observations', { ids: [ids[0]], expand: false });
    expect(compressed.payload[0].content.length).toBeLessThanOrEqual(bodies.payload[0].content.length);
    expect(compressed.payload[0].content).toContain('apps/api/src/ws.ts');
  });

  it('timeline, list_sessions and recall_session navigate sessions without bodies', async () => {
    const timeline = await server.call('timeline', { session_id: 'claude-1', limit: 5 });
    expect(timeline.payload).toHaveLength(5);
    for (const e of timeline.payload) expect(Object.keys(e).sort()).toEqual(['id', 'kind', 'ts']);
    const sessions = await server.call('list_sessions', { limit: 10 });
    expect(sessions.payload.map((s: { id: string }) => s.id).sort()).toEqual(['claude-1', 'codex-1']);
    expect(sessions.payload[0]).toEqual({
      id: expect.any(String),
      ide: expect.any(String),
      cwd: null,
      started_at: expect.any(Number),
      ended_at: null,
    });
    const recall = await server.call('recall_session', {
      target_session_id: 'claude-1',
      current_session_id: 'codex-1',
      limit: 3,
    });
    expect(recall.payload.session).toMatchObject({ id: 'claude-1', ide: 'claude-code' });
    expect(recall.payload.observations).toHaveLength(3);
    const [audit] = (await server.call('get_observations', { ids: [recall.payload.recall_observation_id] })).payload;
    expect(audit).toMatchObject({
      session_id: 'codex-1',
      kind: 'recall',
      metadata: {
        recalled_session_id: 'claude-1',
        owner_ide: 'claude-code',
        observation_ids: recall.payload.observations.map((o: { id: number }) => o.id),
        limit: 3,
      },
    });
  });

  it('task_list steers browsing sessions to task_ready_for_agent', async () => {
    const first = await server.call('task_list', { session_id: 'codex-1' });
    expect(first.payload.tasks[0]).toMatchObject({ id: taskId, repo_root: REPO, branch: BRANCH });
    expect(first.payload).toMatchObject({
      coordination_warning: 'task_list is inventory; use task_ready_for_agent to choose work.',
      next_tool: 'task_ready_for_agent',
      hint: expect.any(String),
    });
    const second = await server.call('task_list', { session_id: 'codex-1' });
    expect(second.payload.coordination_warning).toBe('Stop browsing. Call task_ready_for_agent before selecting work.');
  });

  it('task_timeline and task_updates_since index the thread, excluding your own posts', async () => {
    const timeline = await server.call('task_timeline', { task_id: taskId, limit: 3 });
    expect(timeline.payload).toHaveLength(3);
    expect(Object.keys(timeline.payload[0]).sort()).toEqual(['id', 'kind', 'reply_to', 'session_id', 'ts']);
    expect(timeline.payload[0].id).toBeGreaterThan(timeline.payload[1].id);
    const reply = await server.call('task_post', {
      task_id: taskId,
      session_id: 'codex-1',
      kind: 'answer',
      content: 'Typecheck is green.',
      reply_to: timeline.payload[0].id,
    });
    const since = await server.call('task_updates_since', {
      task_id: taskId,
      session_id: 'claude-1',
      since_ts: 0,
      limit: 200,
    });
    expect(since.payload.map((u: { session_id: string }) => u.session_id)).toContain('codex-1');
    expect(since.payload.every((u: { session_id: string }) => u.session_id !== 'claude-1')).toBe(true);
    expect(since.payload.at(-1)).toEqual({
      id: reply.payload.id,
      kind: 'answer',
      session_id: 'codex-1',
      ts: expect.any(Number),
    });
  });

  it('task_note_working posts to the one active task, refuses ambiguity and absence', async () => {
    const ok = await server.call('task_note_working', {
      session_id: 'codex-1',
      content: 'branch=x; next=run tests; evidence=pnpm test',
    });
    expect(ok.payload).toEqual({ observation_id: expect.any(Number), id: ok.payload.observation_id, task_id: taskId });
    await server.call('task_thread', { repo_root: REPO, branch: 'other', session_id: 'codex-1', agent: 'codex' });
    const ambiguous = await server.call('task_note_working', { session_id: 'codex-1', content: 'state' });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.payload.code).toBe('AMBIGUOUS_ACTIVE_TASK');
    expect(ambiguous.payload.candidates).toHaveLength(2);
    expect(Object.keys(ambiguous.payload.candidates[0]).sort()).toEqual([
      'agent',
      'branch',
      'repo_root',
      'status',
      'task_id',
      'updated_at',
    ]);
    const narrowed = await server.call('task_note_working', {
      session_id: 'codex-1',
      repo_root: REPO,
      branch: BRANCH,
      content: 'state',
    });
    expect(narrowed.payload.task_id).toBe(taskId);
    const none = await server.call('task_note_working', { session_id: 'codex-1', branch: 'nope', content: 'state' });
    expect(none.payload.code).toBe('ACTIVE_TASK_NOT_FOUND');
  });

  it('answers every documented error code as { code, error, tool, timestamp } with isError', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['recall_session', { target_session_id: 'ghost', current_session_id: 'codex-1' }, 'SESSION_NOT_FOUND'],
      ['recall_session', { target_session_id: 'claude-1', current_session_id: 'ghost' }, 'SESSION_NOT_FOUND'],
      ['task_timeline', { task_id: 9999 }, 'TASK_NOT_FOUND'],
      ['task_updates_since', { task_id: 9999, session_id: 'codex-1', since_ts: 0 }, 'TASK_NOT_FOUND'],
      ['task_post', { task_id: 9999, session_id: 'codex-1', kind: 'note', content: 'x' }, 'TASK_NOT_FOUND'],
      ['task_post', { task_id: taskId, session_id: 'ghost', kind: 'note', content: 'x' }, 'NOT_PARTICIPANT'],
      [
        'task_post',
        { task_id: taskId, session_id: 'codex-1', kind: 'note', content: 'x', reply_to: 999999 },
        'OBSERVATION_NOT_FOUND',
      ],
      ['get_observations', { ids: [999999] }, 'OBSERVATION_NOT_FOUND'],
      ['task_note_working', { session_id: 'ghost', content: 'x' }, 'ACTIVE_TASK_NOT_FOUND'],
      ['search', { query: 42 }, 'INVALID_PARAMETERS'],
      ['task_post', { task_id: taskId, session_id: 'codex-1', kind: 'gossip', content: 'x' }, 'INVALID_PARAMETERS'],
      ['no_such_tool', {}, 'UNKNOWN_TOOL'],
    ];
    for (const [tool, args, code] of cases) {
      const r = await server.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.payload).toMatchObject({ code, error: expect.any(String), tool, timestamp: expect.any(String) });
    }
    const invalid = await server.call('task_post', {
      task_id: 'seventeen',
      session_id: 'codex-1',
      kind: 'note',
      content: 'x',
    });
    expect(invalid.payload.fields).toEqual(['task_id']);
    expect(invalid.payload.error).toContain('task_id');
  });

  it('refuses posts from sessions that have not joined, and replies to other tasks', async () => {
    await server.call('task_thread', {
      repo_root: '/abs/other',
      branch: 'main',
      session_id: 'cursor-1',
      agent: 'cursor',
    });
    const notJoined = await server.call('task_post', {
      task_id: taskId,
      session_id: 'cursor-1',
      kind: 'note',
      content: 'x',
    });
    expect(notJoined.payload.code).toBe('NOT_PARTICIPANT');
    const other = await server.call('task_list', { repo_root: '/abs/other' });
    const otherTask = other.payload.tasks[0].id;
    const [foreign] = (await server.call('task_timeline', { task_id: otherTask, limit: 1 })).payload;
    const wrongTask = await server.call('task_post', {
      task_id: taskId,
      session_id: 'codex-1',
      kind: 'note',
      content: 'x',
      reply_to: foreign.id,
    });
    expect(wrongTask.payload.code).toBe('OBSERVATION_NOT_ON_TASK');
  });

  it('returns the first result for a retried idempotency_key and refuses its reuse with other arguments', async () => {
    const args = {
      task_id: taskId,
      session_id: 'codex-1',
      kind: 'note',
      content: 'retry-safe note',
      idempotency_key: 'retry-1',
    };
    const first = await server.call('task_post', args);
    const second = await server.call('task_post', args);
    expect(second.payload).toEqual(first.payload);
    const hits = await server.call('search', { query: 'retry-safe note' });
    expect(hits.payload.filter((h: { snippet: string }) => h.snippet === 'retry-safe note')).toHaveLength(1);
    const reused = await server.call('task_post', { ...args, content: 'something else' });
    expect(reused.payload.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('writes a receipt for every call, ok or error, with token counts', async () => {
    const store = await openTestStore(db);
    try {
      const receipts = await listReceipts(store, 0);
      expect(receipts.length).toBeGreaterThan(40);
      expect(receipts.some((r) => r.operation === 'search' && r.ok && r.outputTokens > 0 && r.inputTokens > 0)).toBe(
        true,
      );
      expect(receipts.some((r) => !r.ok && r.errorCode === 'SESSION_NOT_FOUND')).toBe(true);
      expect(receipts.every((r) => r.durationMs >= 0)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
