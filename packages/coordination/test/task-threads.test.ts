/**
 * Task threads (task_thread, task_post, task_timeline, task_updates_since): one thread
 * per (repo_root, branch), posts only from participants, refusals that write nothing,
 * and the routing hints the contract asks task_post to give.
 */
import { getObservation } from '@swarm/storage';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';

const REPO = '/abs/repo';

interface Thread {
  task_id: number;
  repo_root: string;
  branch: string;
  created: boolean;
  participants: Array<{ session_id: string; agent: string }>;
}

let fx: Fixture;
beforeEach(() => {
  fx = createFixture();
});
afterEach(() => fx.close());

const join = (session_id: string, agent: string, branch = 'main', extra: Record<string, unknown> = {}) =>
  fx.ok<Thread>('task_thread', { repo_root: REPO, branch, session_id, agent, ...extra });

describe('task_thread', () => {
  it('opens a thread once, and joining again is idempotent', async () => {
    const opened = await join('claude-1', 'claude');
    expect(opened).toEqual({
      task_id: opened.task_id,
      repo_root: REPO,
      branch: 'main',
      created: true,
      participants: [{ session_id: 'claude-1', agent: 'claude' }],
    });
    const before = fx.observations();
    fx.clock.advance(1000);
    const again = await join('claude-1', 'claude');
    expect(again).toEqual({ ...opened, created: false });
    expect(fx.observations()).toBe(before);
  });

  it("records 'task-open' for the opener and 'task-join' for each new participant", async () => {
    const opened = await join('claude-1', 'claude');
    fx.clock.advance(10);
    const joined = await join('codex-1', 'codex');
    expect(joined.task_id).toBe(opened.task_id);
    expect(joined.created).toBe(false);
    expect(joined.participants).toEqual([
      { session_id: 'claude-1', agent: 'claude' },
      { session_id: 'codex-1', agent: 'codex' },
    ]);
    const timeline = await fx.ok<Array<{ id: number; kind: string; session_id: string; ts: number }>>('task_timeline', {
      task_id: opened.task_id,
    });
    expect(timeline.map((e) => [e.kind, e.session_id, e.ts])).toEqual([
      ['task-join', 'codex-1', START + 10],
      ['task-open', 'claude-1', START],
    ]);
    const open = getObservation(fx.store, timeline[1]!.id);
    expect(open?.metadata).toEqual({ agent: 'claude', branch: 'main', repo_root: REPO });
  });

  it('records a new join when a session rejoins as another agent', async () => {
    const opened = await join('s-1', 'claude');
    const rejoined = await join('s-1', 'claude-reviewer');
    expect(rejoined.participants).toEqual([{ session_id: 's-1', agent: 'claude-reviewer' }]);
    const timeline = await fx.ok<Array<{ kind: string }>>('task_timeline', { task_id: opened.task_id });
    expect(timeline.map((e) => e.kind)).toEqual(['task-join', 'task-open']);
  });

  it('normalizes repo_root so one repository is one thread', async () => {
    const a = await fx.ok<Thread>('task_thread', {
      repo_root: '/abs/repo/',
      branch: 'main',
      session_id: 'a',
      agent: 'claude',
    });
    const b = await fx.ok<Thread>('task_thread', {
      repo_root: '/abs/./repo',
      branch: 'main',
      session_id: 'b',
      agent: 'codex',
    });
    expect(a.repo_root).toBe(REPO);
    expect(b.task_id).toBe(a.task_id);
  });

  it('keeps different branches in different threads', async () => {
    const main = await join('s', 'claude', 'main');
    const dev = await join('s', 'claude', 'dev');
    expect(dev.task_id).not.toBe(main.task_id);
    expect(dev.created).toBe(true);
  });

  it('registers the session with the IDE inferred from its id unless given', async () => {
    await join('codex-abc', 'codex');
    await join('weird-id', 'claude', 'main', { ide: 'cursor' });
    const sessions = await fx.ok<Array<{ id: string; ide: string }>>('list_sessions', {});
    expect(Object.fromEntries(sessions.map((s) => [s.id, s.ide]))).toEqual({
      'codex-abc': 'codex',
      'weird-id': 'cursor',
    });
  });
});

describe('task_post', () => {
  let taskId: number;
  beforeEach(async () => {
    taskId = (await join('claude-1', 'claude')).task_id;
  });

  const post = (args: Record<string, unknown>) =>
    fx.ok<Record<string, unknown> & { id: number; hint: string }>('task_post', {
      task_id: taskId,
      session_id: 'claude-1',
      kind: 'note',
      content: 'Tests pass on the storage package.',
      ...args,
    });

  it('appends the post to the thread and answers { id, hint }', async () => {
    fx.clock.advance(5);
    const result = await post({ kind: 'decision', content: 'Using BM25 + cosine hybrid with alpha=0.5' });
    expect(result).toEqual({
      id: result.id,
      hint: 'Working state without task_id: task_note_working.',
    });
    const row = getObservation(fx.store, result.id);
    expect(row).toMatchObject({
      sessionId: 'claude-1',
      taskId,
      kind: 'decision',
      content: 'Using BM25 + cosine hybrid with alpha=0.5',
      ts: START + 5,
    });
    expect(row!.tokenCount).toBeGreaterThan(0);
  });

  it('stores a post that quotes special-token text, with its ordinary token count', async () => {
    const content = 'The model emitted <|endoftext|> mid-answer and the stream stopped.';
    const result = await post({ content });
    const row = getObservation(fx.store, result.id);
    expect(row?.content).toBe(content);
    expect(row?.tokenCount).toBe(countTokens(content, { disallowedSpecial: new Set() }));
  });

  it('links a reply to an observation on the same task', async () => {
    const question = await post({ kind: 'question', content: 'Which index?' });
    const answer = await post({ kind: 'answer', content: 'FTS5.', reply_to: question.id });
    const timeline = await fx.ok<Array<{ id: number; reply_to: number | null }>>('task_timeline', { task_id: taskId });
    expect(timeline.find((e) => e.id === answer.id)?.reply_to).toBe(question.id);
  });

  describe('refusals write nothing', () => {
    let before: number;
    beforeEach(() => {
      before = fx.observations();
    });
    afterEach(() => {
      expect(fx.observations()).toBe(before);
    });

    it('TASK_NOT_FOUND for an unknown task', async () => {
      const error = await fx.fail('task_post', { task_id: 999, session_id: 'claude-1', kind: 'note', content: 'x' });
      expect(error).toMatchObject({ code: 'TASK_NOT_FOUND', tool: 'task_post', task_id: 999 });
      expect(typeof error.error).toBe('string');
      expect(new Date(error.timestamp).getTime()).toBe(START);
    });

    it('NOT_PARTICIPANT for an unknown session (it has joined nothing)', async () => {
      const error = await fx.fail('task_post', { task_id: taskId, session_id: 'ghost', kind: 'note', content: 'x' });
      expect(error).toMatchObject({ code: 'NOT_PARTICIPANT', session_id: 'ghost' });
    });

    it('NOT_PARTICIPANT for a known session that has not joined this task', async () => {
      await join('codex-1', 'codex', 'other-branch');
      const before2 = fx.observations();
      const error = await fx.fail('task_post', { task_id: taskId, session_id: 'codex-1', kind: 'note', content: 'x' });
      expect(error).toMatchObject({ code: 'NOT_PARTICIPANT', task_id: taskId, session_id: 'codex-1' });
      expect(fx.observations()).toBe(before2);
      before = before2;
    });

    it('OBSERVATION_NOT_FOUND for a reply to an unknown observation', async () => {
      const error = await fx.fail('task_post', {
        task_id: taskId,
        session_id: 'claude-1',
        kind: 'answer',
        content: 'x',
        reply_to: 4242,
      });
      expect(error).toMatchObject({ code: 'OBSERVATION_NOT_FOUND', reply_to: 4242 });
    });

    it('OBSERVATION_NOT_ON_TASK for a reply to another task', async () => {
      const other = await join('claude-1', 'claude', 'elsewhere');
      const foreign = await fx.ok<{ id: number }>('task_post', {
        task_id: other.task_id,
        session_id: 'claude-1',
        kind: 'question',
        content: 'over there?',
      });
      before = fx.observations();
      const error = await fx.fail('task_post', {
        task_id: taskId,
        session_id: 'claude-1',
        kind: 'answer',
        content: 'x',
        reply_to: foreign.id,
      });
      expect(error).toMatchObject({ code: 'OBSERVATION_NOT_ON_TASK', reply_to: foreign.id, task_id: taskId });
    });

    it('INVALID_PARAMETERS for an unknown kind', async () => {
      const error = await fx.fail('task_post', { task_id: taskId, session_id: 'claude-1', kind: 'edit', content: 'x' });
      expect(error).toMatchObject({ code: 'INVALID_PARAMETERS', fields: ['kind'] });
    });
  });

  it('routes a post that names another agent and asks for action to task_message', async () => {
    const content = 'codex, can you re-run the typecheck?';
    const result = await post({ kind: 'question', content });
    expect(result).toMatchObject({
      route_to_task_message: true,
      misrouted_directed_coordination: true,
      replacement_tool: 'task_message',
    });
    expect(result.hint).toContain('For directed agent coordination, use task_message.');
    expect(result.suggested_args).toEqual({
      task_id: taskId,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      content,
      urgency: 'needs_reply',
    });
    expect(result).not.toHaveProperty('recommendation');
    expect(getObservation(fx.store, result.id)?.content).toBe(content); // still posted
  });

  it('compacts the suggested content to one line', async () => {
    const result = await post({ content: '@codex\n\nplease   review\tthe migration' });
    expect((result.suggested_args as { content: string }).content).toBe('@codex please review the migration');
  });

  it('recommends task_propose for a note that reads as future work', async () => {
    const content = 'follow-up: later we should extract a helper';
    const result = await post({ content });
    expect(result.recommendation).toEqual({
      tool: 'task_propose',
      reason: expect.any(String),
      suggested_args: {
        repo_root: REPO,
        branch: 'main',
        summary: content,
        rationale: content,
        touches_files: [],
        session_id: 'claude-1',
      },
    });
    expect(result).not.toHaveProperty('route_to_task_message');
  });

  it('does not recommend task_propose for future-work wording in a blocker', async () => {
    const result = await post({ kind: 'blocker', content: 'follow-up: later we should extract a helper' });
    expect(result).not.toHaveProperty('recommendation');
  });

  it('adds neither routing nor a recommendation to a plain note', async () => {
    for (const content of [
      'Tests pass on the storage package.',
      'codex finished the migration.',
      'claude, can you re-run the typecheck?', // addressed to the poster itself
    ]) {
      const result = await post({ content });
      expect(Object.keys(result).sort(), content).toEqual(['hint', 'id']);
    }
  });
});

describe('task_timeline and task_updates_since', () => {
  it('list compact entries: newest first, and since a time without the caller', async () => {
    const { task_id } = await join('claude-1', 'claude');
    fx.clock.advance(100);
    await join('codex-1', 'codex');
    const since = fx.clock.now();
    fx.clock.advance(100);
    const mine = await fx.ok<{ id: number }>('task_post', {
      task_id,
      session_id: 'claude-1',
      kind: 'note',
      content: 'mine',
    });
    fx.clock.advance(100);
    const theirs = await fx.ok<{ id: number }>('task_post', {
      task_id,
      session_id: 'codex-1',
      kind: 'blocker',
      content: 'theirs',
    });

    const timeline = await fx.ok<Array<Record<string, unknown>>>('task_timeline', { task_id, limit: 2 });
    expect(timeline).toEqual([
      { id: theirs.id, kind: 'blocker', session_id: 'codex-1', ts: START + 300, reply_to: null },
      { id: mine.id, kind: 'note', session_id: 'claude-1', ts: START + 200, reply_to: null },
    ]);

    const updates = await fx.ok<Array<Record<string, unknown>>>('task_updates_since', {
      task_id,
      session_id: 'claude-1',
      since_ts: since,
    });
    expect(updates).toEqual([{ id: theirs.id, kind: 'blocker', session_id: 'codex-1', ts: START + 300 }]);
    const all = await fx.ok<Array<{ kind: string }>>('task_updates_since', {
      task_id,
      session_id: 'nobody',
      since_ts: 0,
    });
    expect(all.map((u) => u.kind)).toEqual(['task-open', 'task-join', 'note', 'blocker']);
  });

  it('answer TASK_NOT_FOUND for an unknown task', async () => {
    expect((await fx.fail('task_timeline', { task_id: 77 })).code).toBe('TASK_NOT_FOUND');
    expect((await fx.fail('task_updates_since', { task_id: 77, session_id: 's', since_ts: 0 })).code).toBe(
      'TASK_NOT_FOUND',
    );
  });
});

describe('task_list', () => {
  it('lists threads with participants, most recently updated first, filtered by repo and branch', async () => {
    const main = await join('claude-1', 'claude', 'main', { title: 'Main work' });
    fx.clock.advance(10);
    await join('codex-1', 'codex', 'dev');
    fx.clock.advance(10);
    await fx.ok('task_post', { task_id: main.task_id, session_id: 'claude-1', kind: 'note', content: 'bump' });
    const list = await fx.ok<{ tasks: Array<Record<string, unknown>>; hint: string }>('task_list', {});
    expect(list.tasks.map((t) => t.branch)).toEqual(['main', 'dev']);
    expect(list.tasks[0]).toEqual({
      id: main.task_id,
      repo_root: REPO,
      branch: 'main',
      title: 'Main work',
      status: 'active',
      updated_at: START + 20,
      participants: [{ session_id: 'claude-1', agent: 'claude' }],
    });
    expect(list.hint).toMatch(/task_ready_for_agent/);
    const dev = await fx.ok<{ tasks: Array<{ branch: string }> }>('task_list', { repo_root: REPO, branch: 'dev' });
    expect(dev.tasks.map((t) => t.branch)).toEqual(['dev']);
    const none = await fx.ok<{ tasks: unknown[] }>('task_list', { repo_root: '/elsewhere' });
    expect(none.tasks).toEqual([]);
  });
});
