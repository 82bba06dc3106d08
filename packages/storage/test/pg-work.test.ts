/**
 * Plans, the lane map and ready work on PostgreSQL (parity with SQLite): a SQLite store seeded
 * through the storage API (live and old sessions on threads, a left thread, claims,
 * edits, working notes, a plan whose sub-task one lane holds and one completed, unread
 * and expired messages, pending and expired batons) is copied into PostgreSQL
 * (exportStore / importPg); every plans, lanes and ready-work query answers the same on
 * both, and the plan writes (insert, archive, unblock) leave both stores alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as lite from '../src/index';
import { importPg, openPgStore, type PgStore, pgQueries as pq } from '../src/pg/index';
import { describePgStore } from './_pg-store';

const MIN = 60_000;
const REPO = '/abs/repo';

async function seed(store: lite.Store) {
  return store.write(async () => {
    const lane = (session: string, branch: string, at: number, repoRoot = REPO) => {
      lite.upsertSession(store, { id: session, ide: 'codex', agent: 'codex' }, at);
      const { task } = lite.ensureTask(store, { repoRoot, branch, title: `Work on ${branch}` }, at);
      lite.joinTask(store, task.id, session, 'codex', at);
      return task.id;
    };
    const old = lane('old-1', 'agent/old', 0);
    const a = lane('codex-1', 'agent/a', 100 * MIN);
    const b = lane('codex-2', 'agent/b', 110 * MIN);
    // Two sessions with one heartbeat: their order is the ids' byte order.
    lane('Codex-3', 'agent/b', 110 * MIN);
    lane('other-1', 'agent/c', 110 * MIN, '/abs/other');
    const obs = (sessionId: string, taskId: number, kind: string, content: string, ts: number, metadata?: object) =>
      lite.insertObservation(store, {
        sessionId,
        taskId,
        kind,
        content,
        ts,
        tokenCount: 1,
        metadata: metadata ?? null,
      });
    const first = await obs('codex-1', a, 'note', 'started', 100 * MIN);
    lite.insertClaim(
      store,
      { taskId: a, filePath: 'src/a.ts', sessionId: 'codex-1', agent: 'codex', observationId: first },
      101 * MIN,
    );
    lite.insertClaim(
      store,
      { taskId: b, filePath: 'src/b.ts', sessionId: 'codex-2', agent: 'codex', observationId: first },
      111 * MIN,
    );
    await obs('codex-1', a, 'edit', 'Edit src/a.ts', 102 * MIN);
    await obs('codex-1', a, 'note', 'working on the parser '.repeat(20), 103 * MIN, { working: true });
    await obs('codex-1', a, 'note', 'not a working note', 104 * MIN, { working: false });
    await obs('codex-2', b, 'note', 'also working', 112 * MIN, { working: 1 });
    for (const [i, kind] of ['failed_approach', 'blocker', 'failed_approach'].entries()) {
      await obs('codex-2', b, kind, `${kind} ${i}: ${'x'.repeat(250)}`, (113 + i) * MIN);
    }
    const plan = lite.insertPlan(
      store,
      {
        repoRoot: REPO,
        slug: 'p',
        title: 'P',
        problem: 'x',
        acceptanceCriteria: ['y'],
        specTaskId: a,
        specChangePath: null,
        autoArchive: false,
        createdBy: 'codex-1',
        createdByAgent: 'codex',
        observationId: first,
      },
      105 * MIN,
    );
    const sub = (i: number, taskId: number, status: 'available' | 'blocked') =>
      lite.insertSubtask(store, {
        planId: plan.id,
        subtaskIndex: i,
        title: `s${i}`,
        description: 'd',
        fileScope: [`src/s${i}.ts`],
        dependsOn: [],
        capabilityHint: null,
        specRowId: null,
        taskId,
        branch: `agent/s${i}`,
        waveIndex: 0,
        status,
        observationId: first,
      });
    const held = sub(0, b, 'available');
    sub(1, a, 'available');
    sub(2, a, 'blocked');
    const done = sub(3, old, 'available');
    lite.claimSubtask(store, held.id, { sessionId: 'codex-2', agent: 'codex', observationId: first }, 115 * MIN);
    lite.claimSubtask(store, done.id, { sessionId: 'old-1', agent: 'codex', observationId: first }, 1);
    lite.completeSubtask(store, done.id, 'old-1', 2);
    for (const [i, [urgency, expiresAt]] of (
      [
        ['blocking', null],
        ['needs_reply', 200 * MIN],
        ['fyi', 50 * MIN],
      ] as const
    ).entries()) {
      const id = await obs('codex-2', a, 'message', `m${i}`, (116 + i) * MIN);
      lite.insertMessage(store, {
        id,
        taskId: a,
        fromSessionId: 'codex-2',
        fromAgent: 'codex',
        toAgent: 'claude',
        toSessionId: null,
        urgency,
        status: 'unread',
        replyTo: null,
        createdAt: (116 + i) * MIN,
        expiresAt,
        statusChangedAt: (116 + i) * MIN,
      });
    }
    for (const [i, [kind, expiresAt]] of (
      [
        ['handoff', 300 * MIN],
        ['relay', 300 * MIN],
        ['handoff', 60 * MIN],
      ] as const
    ).entries()) {
      const id = await obs('codex-1', a, 'handoff', `h${i}`, (120 + i) * MIN);
      lite.insertBaton(store, {
        id,
        taskId: a,
        kind,
        fromSessionId: 'codex-1',
        fromAgent: 'codex',
        toAgent: 'claude',
        summary: 's',
        payload: {},
        createdAt: (120 + i) * MIN,
        expiresAt,
      });
    }
    return { a, b };
  });
}

describePgStore('plans, lanes and ready work on PostgreSQL (parity with SQLite)', (ctx) => {
  let dir: string;
  let sqlite: lite.Store;
  let pgs: PgStore;
  let ids: { a: number; b: number };
  const both = async <T>(s: (x: lite.Store) => T | Promise<T>, p: (x: PgStore) => Promise<T>): Promise<T> => {
    const [x, y] = [await s(sqlite), await p(pgs)];
    expect(y).toEqual(x);
    return y;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pg-lanes-'));
    sqlite = lite.openStore({ path: join(dir, 's.db') });
    ids = await seed(sqlite);
    let text = '';
    await lite.exportStore(sqlite, (line) => {
      text += line;
    });
    const url = await ctx.cluster().database();
    await importPg(
      url,
      text.split('\n').filter((l) => l !== ''),
    );
    pgs = await openPgStore(url);
  });
  afterAll(async () => {
    await pgs?.close();
    sqlite?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads lanes alike: in scope since a cutoff or all, of one session, with claims, edits and held sub-tasks', async () => {
    const since = await both(
      (s) => lite.lanesInScope(s, { repoRoots: [REPO], since: 60 * MIN, limit: 10 }),
      (p) => pq.lanesInScope(p, { repoRoots: [REPO], since: 60 * MIN, limit: 10 }),
    );
    expect(since.map((r) => r.sessionId)).toEqual(['Codex-3', 'codex-2', 'codex-1']);
    expect(since.find((r) => r.sessionId === 'codex-2')).toMatchObject({ holdsSubtask: 1, liveClaimCount: 1 });
    expect(since.find((r) => r.sessionId === 'codex-1')).toMatchObject({
      lastClaimAt: 101 * MIN,
      lastEditAt: 102 * MIN,
    });
    // The old lane's thread has a completed sub-task: done, not a lane.
    const all = await both(
      (s) => lite.lanesInScope(s, { repoRoots: [REPO, '/abs/other'], since: null, limit: 10 }),
      (p) => pq.lanesInScope(p, { repoRoots: [REPO, '/abs/other'], since: null, limit: 10 }),
    );
    expect(all.map((r) => r.sessionId)).not.toContain('old-1');
    await both(
      (s) => lite.lanesInScope(s, { repoRoots: [REPO], since: null, limit: 1 }),
      (p) => pq.lanesInScope(p, { repoRoots: [REPO], since: null, limit: 1 }),
    );
    expect(await pq.lanesInScope(pgs, { repoRoots: [], since: null, limit: 5 })).toEqual([]);
    await both(
      (s) => lite.lanesOfSession(s, 'codex-1', [REPO], 5),
      (p) => pq.lanesOfSession(p, 'codex-1', [REPO], 5),
    );
    await both(
      (s) => lite.lanesOfSession(s, 'nobody', [REPO], 5),
      (p) => pq.lanesOfSession(p, 'nobody', [REPO], 5),
    );
    expect(
      await both(
        (s) => lite.liveClaimsOfSessions(s, ['codex-1', 'codex-2', 'codex-1']),
        (p) => pq.liveClaimsOfSessions(p, ['codex-1', 'codex-2', 'codex-1']),
      ),
    ).toHaveLength(2);
    await both(
      (s) => lite.liveClaimsOfTask(s, ids.a, 5),
      (p) => pq.liveClaimsOfTask(p, ids.a, 5),
    );
  });

  it('reads the scope alike: attention, ready sub-tasks, warnings and working notes', async () => {
    const attention = await both(
      (s) => lite.scopeAttention(s, [REPO], 100 * MIN, 3),
      (p) => pq.scopeAttention(p, [REPO], 100 * MIN, 3),
    );
    expect(attention).toMatchObject({ unreadMessages: 2, blockingMessages: 1, pendingHandoffs: 1, pendingRelays: 1 });
    await both(
      (s) => lite.scopeAttention(s, [], 0, 3),
      (p) => pq.scopeAttention(p, [], 0, 3),
    );
    expect(
      await both(
        (s) => lite.countReadySubtasks(s, [REPO]),
        (p) => pq.countReadySubtasks(p, [REPO]),
      ),
    ).toBe(1);
    const warnings = await both(
      (s) => lite.scopeWarnings(s, [REPO], ['failed_approach', 'blocker'], 1),
      (p) => pq.scopeWarnings(p, [REPO], ['failed_approach', 'blocker'], 1),
    );
    expect(warnings.map((w) => w.text.length)).toEqual([200, 200]);
    expect(
      await both(
        (s) => lite.latestWorkingNote(s, 'codex-1', ids.a, 50),
        (p) => pq.latestWorkingNote(p, 'codex-1', ids.a, 50),
      ),
    ).toMatchObject({ ts: 103 * MIN });
    expect(
      await both(
        (s) => lite.latestWorkingNote(s, 'codex-2', ids.b, 50),
        (p) => pq.latestWorkingNote(p, 'codex-2', ids.b, 50),
      ),
    ).toMatchObject({ ts: 112 * MIN });
    await both(
      (s) => lite.latestWorkingNote(s, 'codex-1', ids.a, 1),
      (p) => pq.latestWorkingNote(p, 'codex-1', ids.a, 1),
    );
  });
  it('reads ready and stranded work alike: idle claims and sub-tasks, live claims, quiet lanes, ready rows, slugs', async () => {
    const idle = await both(
      (s) => lite.activeClaimsOfIdleSessions(s, 105 * MIN),
      (p) => pq.activeClaimsOfIdleSessions(p, 105 * MIN),
    );
    expect(idle.map((c) => c.filePath)).toEqual(['src/a.ts']);
    await both(
      (s) => lite.activeClaimsOfIdleSessions(s, 0),
      (p) => pq.activeClaimsOfIdleSessions(p, 0),
    );
    expect(
      await both(
        (s) => lite.liveClaimsOfSession(s, 'codex-1'),
        (p) => pq.liveClaimsOfSession(p, 'codex-1'),
      ),
    ).toHaveLength(1);
    expect(
      await both(
        (s) => lite.othersLiveClaimsOnFiles(s, REPO, ['src/b.ts', 'src/a.ts', 'src/a.ts'], 'codex-1'),
        (p) => pq.othersLiveClaimsOnFiles(p, REPO, ['src/b.ts', 'src/a.ts', 'src/a.ts'], 'codex-1'),
      ),
    ).toEqual([expect.objectContaining({ filePath: 'src/b.ts', sessionId: 'codex-2' })]);
    await both(
      (s) => lite.othersLiveClaimsOnFiles(s, REPO, [], 'codex-1'),
      (p) => pq.othersLiveClaimsOnFiles(p, REPO, [], 'codex-1'),
    );
    const agents = await both(
      async (s) =>
        (await lite.recentSessionAgents(s, 100 * MIN)).sort((x, y) => x.sessionId.localeCompare(y.sessionId)),
      async (p) => (await pq.recentSessionAgents(p, 100 * MIN)).sort((x, y) => x.sessionId.localeCompare(y.sessionId)),
    );
    expect(agents).toHaveLength(4);
    // Unordered on both (no ORDER BY): compared by id.
    const placed = await both(
      async (s) => (await lite.subtasksOfTasks(s, [ids.a, ids.b, ids.a])).sort((x, y) => x.id - y.id),
      async (p) => (await pq.subtasksOfTasks(p, [ids.a, ids.b, ids.a])).sort((x, y) => x.id - y.id),
    );
    expect(placed.find((x) => x.subtaskIndex === 0)?.fileScope).toEqual(['src/s0.ts']);
    expect(
      await both(
        (s) => lite.subtasksClaimedByIdleSessions(s, 200 * MIN),
        (p) => pq.subtasksClaimedByIdleSessions(p, 200 * MIN),
      ),
    ).toHaveLength(1);
    for (const repoRoot of [REPO, '/abs/other', undefined]) {
      const filter = {
        after: 90 * MIN,
        before: 111 * MIN,
        excludeSessionId: 'codex-1',
        limit: 10,
        ...(repoRoot ? { repoRoot } : {}),
      };
      await both(
        (s) => lite.quietLanes(s, filter),
        (p) => pq.quietLanes(p, filter),
      );
    }
    const ready = await both(
      (s) => lite.readySubtaskRows(s, 'codex-2'),
      (p) => pq.readySubtaskRows(p, 'codex-2'),
    );
    expect(ready.map((r) => [r.subtaskIndex, r.status])).toEqual([
      [0, 'claimed'],
      [1, 'available'],
      [2, 'blocked'],
      [3, 'completed'],
    ]);
    await both(
      (s) => lite.readySubtaskRows(s, 'codex-1', '/abs/other'),
      (p) => pq.readySubtaskRows(p, 'codex-1', '/abs/other'),
    );
    expect(
      await both(
        (s) => lite.countActivePlans(s),
        (p) => pq.countActivePlans(p),
      ),
    ).toBe(1);
    await both(
      (s) => lite.countActivePlans(s, '/abs/other'),
      (p) => pq.countActivePlans(p, '/abs/other'),
    );
    expect([
      ...(await both(
        (s) => lite.slugsInSeveralRepos(s, ['p', 'q']),
        (p) => pq.slugsInSeveralRepos(p, ['p', 'q']),
      )),
    ]).toEqual([]);
  });

  it('reads and writes plans alike: lookups, lists, sub-tasks, claimed ones, counts; insert, archive, unblock', async () => {
    const [plan] = await both(
      (s) => lite.plansWithSlug(s, 'p'),
      (p) => pq.plansWithSlug(p, 'p'),
    );
    expect(plan?.acceptanceCriteria).toEqual(['y']);
    const id = plan?.id as number;
    await both(
      (s) => lite.getPlan(s, id),
      (p) => pq.getPlan(p, id),
    );
    expect(
      await both(
        (s) => lite.findPlan(s, REPO, 'nope'),
        (p) => pq.findPlan(p, REPO, 'nope'),
      ),
    ).toBeUndefined();
    await both(
      (s) => lite.findPlan(s, REPO, 'p'),
      (p) => pq.findPlan(p, REPO, 'p'),
    );
    for (const filter of [
      {},
      { repoRoot: REPO, status: 'active' as const },
      { status: 'archived' as const },
      { limit: 0 },
    ]) {
      await both(
        (s) => lite.listPlans(s, filter),
        (p) => pq.listPlans(p, filter),
      );
    }
    const subs = await both(
      (s) => lite.subtasksOfPlans(s, [id, 999]),
      (p) => pq.subtasksOfPlans(p, [id, 999]),
    );
    expect(subs.map((x) => x.subtaskIndex)).toEqual([0, 1, 2, 3]);
    await both(
      (s) => lite.getSubtask(s, id, 2),
      (p) => pq.getSubtask(p, id, 2),
    );
    await both(
      (s) => lite.subtasksForSpecRow(s, REPO, 'T1'),
      (p) => pq.subtasksForSpecRow(p, REPO, 'T1'),
    );
    expect(
      await both(
        (s) => lite.claimedSubtasksOfSession(s, 'codex-2'),
        (p) => pq.claimedSubtasksOfSession(p, 'codex-2'),
      ),
    ).toHaveLength(1);
    for (const status of [undefined, 'available', 'blocked'] as const) {
      await both(
        (s) => lite.countSubtasks(s, status),
        (p) => pq.countSubtasks(p, status),
      );
    }
    // Writes: the same on both stores, then both read alike.
    const write = <T>(s: (x: lite.Store) => T, p: (x: PgStore) => Promise<T>) =>
      both(
        (x) => x.write(() => s(x)),
        (x) => x.write(() => p(x)),
      );
    const draft = {
      repoRoot: REPO,
      slug: 'q',
      title: 'Q',
      problem: 'z',
      acceptanceCriteria: ['one', 'two'],
      specTaskId: ids.a,
      specChangePath: 'openspec/changes/q',
      autoArchive: true,
      createdBy: 'codex-1',
      createdByAgent: 'codex',
      observationId: 1,
    };
    const made = await write(
      (s) => lite.insertPlan(s, draft, 130 * MIN),
      (p) => pq.insertPlan(p, draft, 130 * MIN),
    );
    const blocked = {
      planId: made.id,
      subtaskIndex: 0,
      title: 'later',
      description: 'd',
      fileScope: ['docs/q.md'],
      dependsOn: [1],
      capabilityHint: 'docs',
      specRowId: 'T1',
      taskId: ids.a,
      branch: 'agent/q0',
      waveIndex: 1,
      status: 'blocked' as const,
      observationId: 1,
    };
    const sub = await write(
      (s) => lite.insertSubtask(s, blocked),
      (p) => pq.insertSubtask(p, blocked),
    );
    expect(sub.dependsOn).toEqual([1]);
    await both(
      (s) => lite.subtasksForSpecRow(s, REPO, 'T1'),
      (p) => pq.subtasksForSpecRow(p, REPO, 'T1'),
    );
    expect(
      await write(
        (s) => lite.unblockSubtasks(s, [sub.id, 999]),
        (p) => pq.unblockSubtasks(p, [sub.id, 999]),
      ),
    ).toBe(1);
    expect(
      await write(
        (s) => lite.unblockSubtasks(s, [sub.id]),
        (p) => pq.unblockSubtasks(p, [sub.id]),
      ),
    ).toBe(0);
    expect(
      await write(
        (s) => lite.markPlanArchived(s, made.id, 140 * MIN),
        (p) => pq.markPlanArchived(p, made.id, 140 * MIN),
      ),
    ).toBe(true);
    expect(
      await write(
        (s) => lite.markPlanArchived(s, made.id, 141 * MIN),
        (p) => pq.markPlanArchived(p, made.id, 141 * MIN),
      ),
    ).toBe(false);
    expect(
      await both(
        (s) => lite.countPlans(s),
        (p) => pq.countPlans(p),
      ),
    ).toBe(2);
    await both(
      (s) => lite.listPlans(s, { status: 'archived' }),
      (p) => pq.listPlans(p, { status: 'archived' }),
    );
  });
});
