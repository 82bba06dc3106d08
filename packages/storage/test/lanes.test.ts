/**
 * Lane reads: live sessions on their threads found through the heartbeat index (so
 * thousands of old sessions on finished work are never read), each lane's last claim
 * and edit, and the bounded scope reads (attention, ready count, warnings).
 */
import { expect, it } from 'vitest';
import { handleOf } from '../src/_store';
import {
  ensureTask,
  insertClaim,
  insertObservation,
  joinTask,
  lanesInScope,
  liveClaimsOfSessions,
  type Store,
  scopeWarnings,
  upsertSession,
} from '../src/index';
import { LANES_SQL } from '../src/lanes';
import { describeMatrix } from './_matrix';

const REPO = '/abs/repo';
const MIN = 60_000;

function lane(store: Store, session: string, branch: string, at: number, repoRoot = REPO): Promise<number> {
  return store.write(() => {
    upsertSession(store, { id: session, ide: 'codex', agent: 'codex' }, at);
    const { task } = ensureTask(store, { repoRoot, branch, title: `Work on ${branch}` }, at);
    joinTask(store, task.id, session, 'codex', at);
    return task.id;
  });
}

function plan(store: Store, sql: string): string {
  const params = { since: 0, roots: '[]', limit: 5 };
  const statement = handleOf(store).sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  return (statement.all(...(sql.includes('@since') ? [params] : [])) as Array<{ detail: string }>)
    .map((r) => r.detail)
    .join('\n');
}

describeMatrix('lanes', ({ open }) => {
  it('reads sessions heartbeating since the cutoff, newest first, with their last claim and edit', async () => {
    const store = open();
    const old = await lane(store, 'old-1', 'agent/old', 0);
    const a = await lane(store, 'codex-1', 'agent/a', 100 * MIN);
    await lane(store, 'codex-2', 'agent/b', 110 * MIN);
    await lane(store, 'other-1', 'agent/c', 110 * MIN, '/abs/other');
    await store.write(async () => {
      insertClaim(
        store,
        { taskId: a, filePath: 'src/a.ts', sessionId: 'codex-1', agent: 'codex', observationId: 0 },
        101 * MIN,
      );
      await insertObservation(store, {
        sessionId: 'codex-1',
        taskId: a,
        kind: 'edit',
        content: 'Edit src/b.ts',
        ts: 102 * MIN,
        tokenCount: 3,
      });
    });
    const rows = lanesInScope(store, { repoRoots: [REPO], since: 60 * MIN, limit: 10 });
    expect(rows.map((r) => r.sessionId)).toEqual(['codex-2', 'codex-1']);
    expect(rows[1]).toMatchObject({
      taskId: a,
      branch: 'agent/a',
      title: 'Work on agent/a',
      lastClaimAt: 101 * MIN,
      lastEditAt: 102 * MIN,
      liveClaimCount: 1,
    });
    const all = lanesInScope(store, { repoRoots: [REPO], since: null, limit: 10 });
    expect(all.map((r) => r.taskId)).toContain(old);
    expect(lanesInScope(store, { repoRoots: [REPO], since: null, limit: 1 })).toHaveLength(1);
    expect(liveClaimsOfSessions(store, ['codex-1'])).toEqual([
      expect.objectContaining({ taskId: a, filePath: 'src/a.ts', claimedAt: 101 * MIN }),
    ]);
  });

  it('walks the heartbeat index and probes edits through the partial edit index', () => {
    const store = open();
    const lanes = plan(store, LANES_SQL);
    expect(lanes).toMatch(/SEARCH s USING INDEX sessions_heartbeat_idx \(last_heartbeat_at>\?\)/);
    expect(lanes).toMatch(/SEARCH p USING INDEX task_participants_session_idx/);
    expect(lanes).toMatch(/INDEX observations_edit_idx/);
    expect(lanes).not.toMatch(/SCAN (s|p|t|o)\b/);
    const edits = plan(
      store,
      `SELECT max(o.ts) FROM observations o WHERE o.session_id = 'x' AND o.task_id = 1 AND o.kind = 'edit'`,
    );
    expect(edits).toMatch(/INDEX observations_edit_idx/);
  });

  it('lists the newest warnings of each kind in scope only', async () => {
    const store = open();
    const here = await lane(store, 's-1', 'agent/a', 0);
    const there = await lane(store, 's-2', 'agent/b', 0, '/abs/other');
    await store.write(async () => {
      for (let i = 0; i < 5; i++) {
        await insertObservation(store, {
          sessionId: 's-1',
          taskId: here,
          kind: 'failed_approach',
          content: `attempt ${i} failed`,
          ts: i,
          tokenCount: 3,
        });
      }
      await insertObservation(store, {
        sessionId: 's-2',
        taskId: there,
        kind: 'blocked_path',
        content: 'no',
        ts: 9,
        tokenCount: 1,
      });
    });
    const warnings = scopeWarnings(store, [REPO], ['failed_approach', 'blocked_path'], 2);
    expect(warnings.map((w) => w.text)).toEqual(['attempt 4 failed', 'attempt 3 failed']);
  });
});
