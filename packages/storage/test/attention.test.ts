/**
 * attention_inbox's reads: each walks live state (the live-claims partial index, the
 * claimed status of sub-tasks) or a LIMITed window of the kind index, never history,
 * which the query plans prove; and what they answer: live claims only, edits within the
 * newest scanned rows, blocker posts until someone replies.
 */
import { expect, it } from 'vitest';
import { handleOf } from '../src/_store';
import {
  CLAIMED_SUBTASKS_SQL,
  LIVE_CLAIMS_SQL,
  OPEN_BLOCKERS_SQL,
  RECENT_EDITS_SQL,
  SESSION_THREADS_SQL,
} from '../src/attention';
import {
  ensureTask,
  existingTaskIds,
  insertClaim,
  insertObservation,
  joinTask,
  liveClaimsInScope,
  openBlockerPosts,
  recentEditsInScope,
  releaseLiveClaims,
  type Store,
  sessionThreadsInScope,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

const T0 = 1_000_000;
const everywhere = { repoRoots: null, taskIds: null };

function plan(store: Store, sql: string, params: Record<string, unknown>): string {
  const rows = handleOf(store).sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>;
  return rows.map((r) => r.detail).join('\n');
}

function seed(store: Store) {
  return store.write(() => {
    upsertSession(store, { id: 'a', agent: 'claude' }, T0);
    upsertSession(store, { id: 'b', agent: 'codex' }, T0);
    const r = ensureTask(store, { repoRoot: '/r', branch: 'main' }, T0).task;
    const other = ensureTask(store, { repoRoot: '/other', branch: 'main' }, T0).task;
    for (const task of [r, other]) {
      joinTask(store, task.id, 'a', 'claude', T0);
      joinTask(store, task.id, 'b', 'codex', T0);
    }
    const obs = (taskId: number, kind: string, ts: number, extra: Record<string, unknown> = {}) =>
      insertObservation(store, { sessionId: 'a', taskId, kind, content: `${kind} body`, ts, tokenCount: 1, ...extra });
    return { r: r.id, other: other.id, obs };
  });
}

describeMatrix('attention reads', ({ open }) => {
  it('walks the live-claims partial index and the status, kind and session indexes, never a table', () => {
    const store = open();
    const scope = { roots: '["/r"]', tasks: null };
    expect(plan(store, LIVE_CLAIMS_SQL, { ...scope, limit: 10 })).toMatch(/^SCAN c USING INDEX file_claims_live_uq/);
    expect(plan(store, CLAIMED_SUBTASKS_SQL, { ...scope, limit: 10 })).toMatch(
      /^SEARCH s USING INDEX plan_subtasks_status_idx \(status=\?\)/,
    );
    const edits = plan(store, RECENT_EDITS_SQL, { ...scope, since: 0, scan: 10 });
    expect(edits).toMatch(/SEARCH observations USING INDEX observations_kind_idx \(kind=\?\)/);
    const blockers = plan(store, OPEN_BLOCKERS_SQL, { tasks: '[1]', scan: 10, limit: 10 });
    expect(blockers).toMatch(/SEARCH observations USING INDEX observations_kind_idx \(kind=\?\)/);
    expect(blockers).toMatch(/SEARCH r USING INDEX observations_task_idx \(task_id=\? AND id>\?\)/);
    expect(plan(store, SESSION_THREADS_SQL, { ...scope, session: 's', limit: 10 })).toMatch(
      /^SEARCH p USING INDEX task_participants_session_idx/,
    );
    for (const sql of [LIVE_CLAIMS_SQL, CLAIMED_SUBTASKS_SQL, RECENT_EDITS_SQL, OPEN_BLOCKERS_SQL]) {
      const text = plan(store, sql, { ...scope, since: 0, scan: 10, limit: 10, session: 's' });
      expect(text).not.toMatch(/SCAN (t|tasks|observations|file_claims|sessions|plan_subtasks)\b(?! USING)/);
    }
  });

  it('reads live claims only, newest refresh first, within scope', async () => {
    const store = open();
    const { r, other } = await seed(store);
    await store.write(() => {
      insertClaim(store, { taskId: r, filePath: 'x.ts', sessionId: 'a', agent: 'claude', observationId: 1 }, T0);
      insertClaim(store, { taskId: r, filePath: 'y.ts', sessionId: 'b', agent: 'codex', observationId: 2 }, T0 + 5);
      insertClaim(store, { taskId: other, filePath: 'z.ts', sessionId: 'a', agent: 'claude', observationId: 3 }, T0);
      releaseLiveClaims(store, r, 'a', ['x.ts']);
    });
    expect(liveClaimsInScope(store, everywhere, 10).map((c) => c.filePath)).toEqual(['y.ts', 'z.ts']);
    expect(liveClaimsInScope(store, { repoRoots: ['/r'], taskIds: null }, 10)).toEqual([
      expect.objectContaining({
        filePath: 'y.ts',
        branch: 'main',
        repoRoot: '/r',
        lastHeartbeatAt: T0,
        ide: 'unknown',
      }),
    ]);
    expect(liveClaimsInScope(store, { repoRoots: null, taskIds: [other] }, 10).map((c) => c.filePath)).toEqual([
      'z.ts',
    ]);
    expect(liveClaimsInScope(store, everywhere, 1)).toHaveLength(1);
  });

  it('reads edits within the window among the newest scanned, and blockers until answered', async () => {
    const store = open();
    const { r, other, obs } = await seed(store);
    const old = await obs(r, 'edit', T0, { metadata: { file_path: 'old.ts' } });
    const fresh = await obs(r, 'edit', T0 + 100, { metadata: { file_path: 'a.ts' } });
    await obs(other, 'edit', T0 + 100, { metadata: { file_path: 'b.ts' } });
    expect(recentEditsInScope(store, { repoRoots: ['/r'], taskIds: null }, T0 + 50, 10).map((e) => e.id)).toEqual([
      fresh,
    ]);
    expect(recentEditsInScope(store, everywhere, T0, 10).map((e) => e.filePath)).toEqual(['b.ts', 'a.ts', 'old.ts']);
    // Only the newest `scan` edits are looked at, however wide the window.
    expect(recentEditsInScope(store, everywhere, 0, 2).map((e) => e.id)).not.toContain(old);

    const blocker = await obs(r, 'blocker', T0 + 200);
    const elsewhere = await obs(other, 'blocker', T0 + 200);
    expect(openBlockerPosts(store, [r], 10, 10)).toEqual([
      { id: blocker, taskId: r, sessionId: 'a', agent: 'claude', ts: T0 + 200, head: 'blocker body' },
    ]);
    await obs(r, 'note', T0 + 300);
    expect(openBlockerPosts(store, [r], 10, 10)).toHaveLength(1);
    await obs(r, 'answer', T0 + 400, { replyTo: blocker });
    expect(openBlockerPosts(store, [r, other], 10, 10).map((b) => b.id)).toEqual([elsewhere]);
    expect(openBlockerPosts(store, [], 10, 10)).toEqual([]);
  });

  it('lists a session’s threads in scope and which task ids exist', async () => {
    const store = open();
    const { r, other } = await seed(store);
    expect(sessionThreadsInScope(store, 'a', everywhere, 10).sort()).toEqual([r, other].sort());
    expect(sessionThreadsInScope(store, 'a', { repoRoots: ['/other'], taskIds: null }, 10)).toEqual([other]);
    expect(sessionThreadsInScope(store, 'nobody', everywhere, 10)).toEqual([]);
    expect(existingTaskIds(store, [r, 999]).sort()).toEqual([r]);
  });
});
