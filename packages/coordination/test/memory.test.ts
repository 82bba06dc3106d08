/**
 * Memory tools (search, get_observations, timeline, list_sessions, recall_session):
 * compact hits, bodies only on request, and recall audited in the caller's session.
 */
import { getObservation, upsertSession } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, mainThread, START } from './_fixture';

const REPO = '/abs/repo';

let fx: Fixture;
let taskId: number;

beforeEach(async () => {
  fx = createFixture();
  taskId = await mainThread(fx, REPO);
});
afterEach(() => fx.close());

async function post(content: string, kind = 'note', session_id = 'claude-1'): Promise<number> {
  fx.clock.advance(1);
  return (await fx.ok<{ id: number }>('task_post', { task_id: taskId, session_id, kind, content })).id;
}

type Hit = {
  id: number;
  session_id: string;
  kind: string;
  snippet: string;
  score: number;
  ts: number;
  task_id: number;
};

describe('search', () => {
  it('returns compact hits only: exactly id, kind, snippet, score, task_id (session_id and ts are hydrated)', async () => {
    const id = await post('The auth middleware rejects expired tokens with a 401.');
    const hits = await fx.ok<Hit[]>('search', { query: 'auth middleware' });
    expect(hits).toHaveLength(1);
    expect(Object.keys(hits[0]!).sort()).toEqual(['id', 'kind', 'score', 'snippet', 'task_id']);
    expect(hits[0]).toMatchObject({ id, kind: 'note', task_id: taskId });
    expect(hits[0]!.snippet).toBe('The auth middleware rejects expired tokens with a 401.');
    const [body] = await fx.ok<Array<Record<string, unknown>>>('get_observations', { ids: [id] });
    expect(body).toMatchObject({ id, session_id: 'claude-1', ts: START + 1 });
  });

  it('cuts long bodies to a snippet around the match', async () => {
    const long = `${'filler words here. '.repeat(40)}The needle sits here. ${'more trailing text. '.repeat(40)}`;
    await post(long);
    const [hit] = await fx.ok<Hit[]>('search', { query: 'needle' });
    expect(hit!.snippet.length).toBeLessThanOrEqual(66);
    expect(hit!.snippet.length).toBeLessThan(long.length);
    expect(hit!.snippet).toContain('needle');
  });

  it('puts hits matching every term first, then fills with hits matching any term', async () => {
    const onlyAuth = await post('auth only here');
    const both = await post('auth and middleware together');
    const onlyMiddleware = await post('middleware only here');
    await post('nothing relevant');
    const hits = await fx.ok<Hit[]>('search', { query: 'auth middleware' });
    expect(hits[0]!.id).toBe(both);
    expect(new Set(hits.slice(1).map((h) => h.id))).toEqual(new Set([onlyAuth, onlyMiddleware]));
    expect(hits).toHaveLength(3);
    expect((await fx.ok<Hit[]>('search', { query: 'auth middleware', limit: 1 })).map((h) => h.id)).toEqual([both]);
  });

  it('orders hits by score, higher first', async () => {
    await post('sqlite mentioned once among a great many other words in a long and winding sentence');
    await post('sqlite sqlite sqlite');
    const hits = await fx.ok<Hit[]>('search', { query: 'sqlite' });
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(hits[0]!.snippet).toBe('sqlite sqlite sqlite');
  });

  it('filters by kind and by task', async () => {
    const warning = await post('do not retry the cache flush', 'failed_approach');
    await post('cache flush worked fine', 'note');
    const hits = await fx.ok<Hit[]>('search', { query: 'cache flush', kind: 'failed_approach' });
    expect(hits.map((h) => [h.id, h.kind])).toEqual([[warning, 'failed_approach']]);
    expect(await fx.ok<Hit[]>('search', { query: 'cache flush', task_id: taskId + 1 })).toEqual([]);
    expect(await fx.ok<Hit[]>('search', { query: 'cache flush', task_id: taskId })).toHaveLength(2);
  });

  it('answers no hits, never an error, for queries of FTS5 syntax or punctuation', async () => {
    await post('plain text');
    for (const query of ['"', 'NEAR(', '*', '-', 'AND OR NOT', '!!!', '"plain']) {
      const hits = await fx.ok<Hit[]>('search', { query });
      expect(Array.isArray(hits), query).toBe(true);
    }
    expect(await fx.ok<Hit[]>('search', { query: '"plain' })).toHaveLength(1);
  });
});

describe('get_observations', () => {
  it('returns full bodies in the order asked, with the contract fields', async () => {
    const a = await post('first body');
    const b = await post('second body', 'decision');
    const bodies = await fx.ok<Array<Record<string, unknown>>>('get_observations', { ids: [b, a] });
    expect(bodies).toEqual([
      {
        id: b,
        session_id: 'claude-1',
        kind: 'decision',
        ts: START + 2,
        task_id: taskId,
        content: 'second body',
        metadata: null,
      },
      {
        id: a,
        session_id: 'claude-1',
        kind: 'note',
        ts: START + 1,
        task_id: taskId,
        content: 'first body',
        metadata: null,
      },
    ]);
  });

  it('with expand:false returns a shorter, compressed body that keeps paths and code', async () => {
    const content =
      'The function in packages/storage/src/_store.ts should basically call `openStore({ path })` because the database is very busy, and the configuration is really just a simple implementation.';
    const id = await post(content);
    const [full] = await fx.ok<Array<{ content: string }>>('get_observations', { ids: [id] });
    const [compressed] = await fx.ok<Array<{ content: string }>>('get_observations', { ids: [id], expand: false });
    expect(full!.content).toBe(content);
    expect(compressed!.content.length).toBeLessThan(content.length);
    expect(compressed!.content).toContain('packages/storage/src/_store.ts');
    expect(compressed!.content).toContain('`openStore({ path })`');
    expect(compressed!.content).not.toMatch(/\bbasically\b|\bvery\b|\breally\b/);
    expect(getObservation(fx.store, id)?.content).toBe(content); // stored verbatim
  });

  it('answers OBSERVATION_NOT_FOUND naming the missing ids', async () => {
    const a = await post('exists');
    const error = await fx.fail('get_observations', { ids: [a, 9998, 9999] });
    expect(error).toMatchObject({ code: 'OBSERVATION_NOT_FOUND', missing_ids: [9998, 9999] });
  });
});

describe('timeline and list_sessions', () => {
  it("lists a session's ids oldest first, without bodies, centred on around_id", async () => {
    const ids = [await post('one'), await post('two'), await post('three'), await post('four')];
    const all = await fx.ok<Array<Record<string, unknown>>>('timeline', { session_id: 'claude-1' });
    expect(all.map((e) => e.id)).toEqual([ids[0]! - 1, ...ids]); // task-open came first
    expect(Object.keys(all[0]!).sort()).toEqual(['id', 'kind', 'ts']);
    const around = await fx.ok<Array<{ id: number }>>('timeline', {
      session_id: 'claude-1',
      around_id: ids[1],
      limit: 3,
    });
    expect(around.map((e) => e.id)).toEqual([ids[0], ids[1], ids[2]]);
  });

  it('answers an empty timeline for an unknown session', async () => {
    expect(await fx.ok('timeline', { session_id: 'ghost' })).toEqual([]);
  });

  it('lists sessions newest first with the contract fields', async () => {
    fx.clock.advance(100);
    await fx.ok('task_thread', { repo_root: REPO, branch: 'main', session_id: 'codex-2', agent: 'codex' });
    const sessions = await fx.ok<Array<Record<string, unknown>>>('list_sessions', { limit: 5 });
    expect(sessions).toEqual([
      { id: 'codex-2', ide: 'codex', cwd: null, started_at: START + 100, ended_at: null },
      { id: 'claude-1', ide: 'claude-code', cwd: null, started_at: START, ended_at: null },
    ]);
    expect(await fx.ok<unknown[]>('list_sessions', { limit: 1 })).toHaveLength(1);
  });
});

describe('recall_session', () => {
  beforeEach(() => {
    // A target whose row does not know its IDE.
    upsertSession(fx.store, { id: 'codex-abc-123', cwd: '/repo' }, START - 10);
  });

  it("writes a 'recall' observation in the caller's session with the contract metadata", async () => {
    const ids = [await post('one'), await post('two'), await post('three')];
    fx.clock.advance(7);
    const result = await fx.ok<{
      recall_observation_id: number;
      session: Record<string, unknown>;
      observations: Array<Record<string, unknown>>;
    }>('recall_session', {
      target_session_id: 'claude-1',
      current_session_id: 'codex-abc-123',
      around_id: ids[1],
      limit: 3,
    });

    expect(result.session).toEqual({
      id: 'claude-1',
      ide: 'claude-code',
      cwd: null,
      started_at: START,
      ended_at: null,
    });
    expect(result.observations.map((o) => o.id)).toEqual(ids);
    expect(Object.keys(result.observations[0]!).sort()).toEqual(['id', 'kind', 'ts']);

    const audit = getObservation(fx.store, result.recall_observation_id);
    expect(audit).toMatchObject({ kind: 'recall', sessionId: 'codex-abc-123', taskId: null, ts: fx.clock.now() });
    expect(audit?.metadata).toEqual({
      recalled_session_id: 'claude-1',
      owner_ide: 'claude-code',
      observation_ids: ids,
      around_id: ids[1],
      limit: 3,
    });
  });

  it('infers owner_ide from the target id when its row says unknown, and keeps around_id null when not given', async () => {
    const result = await fx.ok<{ recall_observation_id: number; session: { ide: string } }>('recall_session', {
      target_session_id: 'codex-abc-123',
      current_session_id: 'claude-1',
    });
    expect(result.session.ide).toBe('unknown');
    expect(getObservation(fx.store, result.recall_observation_id)?.metadata).toEqual({
      recalled_session_id: 'codex-abc-123',
      owner_ide: 'codex',
      observation_ids: [],
      around_id: null,
      limit: 20,
    });
  });

  it('answers SESSION_NOT_FOUND for an unknown target or caller, creating no session and writing nothing', async () => {
    const before = fx.observations();
    const target = await fx.fail('recall_session', { target_session_id: 'ghost', current_session_id: 'claude-1' });
    expect(target).toMatchObject({ code: 'SESSION_NOT_FOUND', session_id: 'ghost' });
    const current = await fx.fail('recall_session', { target_session_id: 'claude-1', current_session_id: 'phantom' });
    expect(current).toMatchObject({ code: 'SESSION_NOT_FOUND', session_id: 'phantom' });
    expect(fx.observations()).toBe(before);
    const sessions = await fx.ok<Array<{ id: string }>>('list_sessions', {});
    expect(sessions.map((s) => s.id).sort()).toEqual(['claude-1', 'codex-abc-123']);
  });
});
