/**
 * The search group's queries on PostgreSQL against their SQLite twins: one SQLite store
 * is seeded through the storage API and copied (exportStore / importPg) into a fresh
 * PostgreSQL database; then every read twin must answer what SQLite answers (rows,
 * order, counts, empty results, limits, unknown ids), and the same writes on both sides
 * must leave both answering alike. Full-text ranks differ by design (ts_rank_cd against
 * bm25), so search hits are compared by id set; their order is asserted where scores tie.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as lite from '../src/index';
import { importPg, type PgStore, pgQueries as pq } from '../src/pg/index';
import { describePgStore } from './_pg-store';

const T0 = 1_000_000;
const HOUR = 3_600_000;
const everywhere = { repoRoots: null, taskIds: null };
const receipt = (ts: number, operation: string, ok: boolean, errorCode: string | null = null) => ({
  ts,
  operation,
  sessionId: 'a',
  durationMs: 1.5,
  inputTokens: 10,
  outputTokens: 3,
  ok,
  errorCode,
  errorMessage: errorCode ? `${errorCode} happened` : null,
});
const vec = (...xs: number[]) => new Float32Array(xs);

async function seed(store: lite.Store) {
  return store.write(async () => {
    lite.upsertSession(store, { id: 'a', agent: 'claude' }, T0);
    lite.upsertSession(store, { id: 'b', agent: 'codex' }, T0);
    const r = lite.ensureTask(store, { repoRoot: '/r', branch: 'main' }, T0).task.id;
    const other = lite.ensureTask(store, { repoRoot: '/other', branch: 'main' }, T0 + 1).task.id;
    for (const t of [r, other])
      for (const [s, a] of [
        ['a', 'claude'],
        ['b', 'codex'],
      ] as const)
        lite.joinTask(store, t, s, a, T0);
    const obs = (taskId: number, sessionId: string, kind: string, content: string, ts: number, extra = {}) =>
      lite.insertObservation(store, { sessionId, taskId, kind, content, ts, tokenCount: 1, ...extra });
    const ids: number[] = [];
    ids.push(await obs(r, 'a', 'note', 'the parser breaks on tabs', T0 + 1));
    ids.push(await obs(r, 'b', 'note', 'parser fixed, tabs work', T0 + 2));
    ids.push(await obs(r, 'a', 'edit', 'edited', T0 + 3, { metadata: { file_path: 'src/a.ts' } }));
    ids.push(await obs(r, 'a', 'edit', 'edited again', T0 + 4, { metadata: { file_path: 'src/a.ts' } }));
    ids.push(await obs(other, 'a', 'edit', 'edited', T0 + 4, { metadata: { file_path: 'src/b.ts' } }));
    ids.push(await obs(r, 'b', 'blocker', 'blocked on review', T0 + 5));
    ids.push(await obs(other, 'b', 'blocker', 'blocked on parser', T0 + 6));
    ids.push(await obs(other, 'a', 'note', 'answer', T0 + 7, { replyTo: ids[6] }));
    ids.push(await obs(r, 'a', 'foraged-pattern', 'retry with backoff parser', T0 + 8));
    for (let i = 0; i < 4; i++) ids.push(await obs(r, 'b', 'note', `zebra ${i}`, T0 + 9));
    lite.insertClaim(
      store,
      { taskId: r, filePath: 'src/a.ts', sessionId: 'a', agent: 'claude', observationId: ids[0] as number },
      T0,
    );
    lite.insertClaim(
      store,
      { taskId: other, filePath: 'b.ts', sessionId: 'b', agent: 'codex', observationId: ids[0] as number },
      T0 + 3,
    );
    await lite.insertReceipts(store, [
      receipt(T0, 'task_post', true),
      receipt(T0 + HOUR, 'task_post', false, 'E1'),
      receipt(T0 + HOUR + 5, 'search', true),
      receipt(T0 + 2 * HOUR, 'search', false, 'E1'),
    ]);
    lite.setContext(store, { key: 'plan/a', value: '{"x":1}', agent: 'claude', now: T0 });
    lite.setContext(store, { key: 'plan/B', value: '2', agent: 'claude', now: T0 });
    lite.setContext(store, { key: 'plan_x', value: '3', agent: 'claude', now: T0 });
    lite.upsertExample(store, {
      repoRoot: '/r',
      exampleName: 'ex',
      manifestKind: 'npm',
      contentHash: 'h',
      observationCount: 1,
      firstPatternId: ids[8] as number,
      lastPatternId: ids[8] as number,
      summary: { k: [1] },
      lastScannedAt: T0,
    });
    lite.reindexExamplePatterns(store, 'ex', null, [
      { observationId: ids[8] as number, content: 'retry with backoff parser' },
    ]);
    return { r, other, ids };
  });
}

describePgStore('search, history, receipts and attention on PostgreSQL (parity with SQLite)', (ctx) => {
  let dir: string;
  let sqlite: lite.Store;
  let pgs: PgStore;
  let ids: number[];
  let r: number;
  let other: number;
  let url: string;
  /** The same call on both stores must give equal results; the PostgreSQL one is returned. */
  const both = async <T>(s: (x: lite.Store) => T | Promise<T>, p: (x: PgStore) => Promise<T>): Promise<T> => {
    const [a, b] = [await s(sqlite), await p(pgs)];
    expect(b).toEqual(a);
    return b;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pg-search-'));
    sqlite = lite.openStore({ path: join(dir, 's.db') });
    ({ ids, r, other } = await seed(sqlite));
    let text = '';
    await lite.exportStore(sqlite, (line) => {
      text += line;
    });
    url = await ctx.cluster().database();
    await importPg(
      url,
      text.split('\n').filter((l) => l !== ''),
    );
    pgs = await (await import('../src/pg/index')).openPgStore(url);
  });
  afterAll(async () => {
    await pgs?.close();
    sqlite?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads observations alike: lookups, timelines, counts, replies, edited files', async () => {
    expect(
      (
        await both(
          (s) => lite.getObservation(s, ids[2] as number),
          (p) => pq.getObservation(p, ids[2] as number),
        )
      )?.metadata,
    ).toEqual({ file_path: 'src/a.ts' });
    expect(
      await both(
        (s) => lite.getObservation(s, 999),
        (p) => pq.getObservation(p, 999),
      ),
    ).toBeUndefined();
    const wanted = [ids[3], 999, ids[0], ids[3]] as number[];
    expect(
      (
        await both(
          (s) => lite.getObservations(s, wanted),
          (p) => pq.getObservations(p, wanted),
        )
      ).map((o) => o.id),
    ).toEqual([ids[3], ids[0], ids[3]]);
    expect(
      await both(
        (s) => lite.getObservations(s, []),
        (p) => pq.getObservations(p, []),
      ),
    ).toEqual([]);
    for (const around of [undefined, ids[0], ids[5], ids[12]]) {
      for (const limit of [1, 3, 50])
        await both(
          (s) => lite.sessionTimeline(s, 'b', limit, around),
          (p) => pq.sessionTimeline(p, 'b', limit, around),
        );
    }
    expect(
      await both(
        (s) => lite.sessionTimeline(s, 'nobody', 5),
        (p) => pq.sessionTimeline(p, 'nobody', 5),
      ),
    ).toEqual([]);
    expect(
      (
        await both(
          (s) => lite.taskTimeline(s, r, 3),
          (p) => pq.taskTimeline(p, r, 3),
        )
      ).length,
    ).toBe(3);
    for (const exclude of [undefined, 'a', 'b']) {
      await both(
        (s) => lite.taskUpdatesSince(s, r, T0 + 2, 5, exclude),
        (p) => pq.taskUpdatesSince(p, r, T0 + 2, 5, exclude),
      );
    }
    expect(await both(lite.countObservations, pq.countObservations)).toBe(ids.length);
    expect(
      await both(
        (s) => lite.repliesTo(s, ids[6] as number),
        (p) => pq.repliesTo(p, ids[6] as number),
      ),
    ).toEqual([ids[7]]);
    expect(
      await both(
        (s) => lite.editedFilesSince(s, r, 'a', 0),
        (p) => pq.editedFilesSince(p, r, 'a', 0),
      ),
    ).toEqual([{ filePath: 'src/a.ts', lastTs: T0 + 4 }]);
    await both(
      (s) => lite.editedFilesSince(s, r, 'a', T0 + 5),
      (p) => pq.editedFilesSince(p, r, 'a', T0 + 5),
    );
  });

  it('finds the same matches by full text (ids; ties newest first), with limits and filters', async () => {
    await lite.indexPendingObservations(sqlite);
    const hits = async (query: string, mode: 'all' | 'any', limit: number, filter = {}) => {
      const match = lite.ftsMatchExpression(query, mode) as string;
      const [a, b] = [
        lite.keywordSearch(sqlite, match, limit, filter),
        await pq.keywordSearch(pgs, match, limit, filter),
      ];
      expect(b.map((h) => h.id).sort()).toEqual(a.map((h) => h.id).sort());
      expect(b.map(({ rank, ...rest }) => ({ ...rest, rank: typeof rank }))).toEqual(
        b.map((h) => ({ ...a.find((x) => x.id === h.id), rank: 'number' })),
      );
      return b.map((h) => h.id);
    };
    expect((await hits('parser', 'any', 10)).length).toBe(4);
    expect(await hits('parser tabs', 'all', 10)).toHaveLength(2);
    expect(await hits('parser', 'any', 10, { kind: 'blocker' })).toEqual([ids[6]]);
    expect(await hits('parser', 'any', 10, { sessionId: 'b', taskId: r })).toEqual([ids[1]]);
    expect(await hits('zebra', 'any', 2)).toEqual([ids[12], ids[11]]);
    expect(await hits('nothing-here', 'any', 5)).toEqual([]);
    const live = await pq.liveMatches(pgs, lite.ftsMatchExpression('parser', 'any') as string, ids[1] as number, 5);
    const liteLive = lite.liveMatches(sqlite, lite.ftsMatchExpression('parser', 'any') as string, ids[1] as number, 5);
    expect(live).toEqual(liteLive);
    expect(live[0]?.marked).toBe(`retry with backoff ${lite.MATCH_OPEN}parser${lite.MATCH_CLOSE}`);
    const patternIds = async (x: Promise<lite.KeywordHit[]> | lite.KeywordHit[]) => (await x).map((h) => h.id);
    expect(await patternIds(pq.searchExamplePatterns(pgs, '"backoff"', 5))).toEqual([ids[8]]);
    expect(await patternIds(lite.searchExamplePatterns(sqlite, '"backoff"', 5))).toEqual([ids[8]]);
    expect(await pq.searchExamplePatterns(pgs, '"backoff"', 0)).toEqual([]);
  });

  it('answers attention reads alike, in and out of scope', async () => {
    for (const scope of [
      everywhere,
      { repoRoots: ['/r'], taskIds: null },
      { repoRoots: null, taskIds: [other] },
      { repoRoots: [], taskIds: null },
    ]) {
      await both(
        (s) => lite.liveClaimsInScope(s, scope, 10),
        (p) => pq.liveClaimsInScope(p, scope, 10),
      );
      await both(
        (s) => lite.claimedSubtasksInScope(s, scope, 10),
        (p) => pq.claimedSubtasksInScope(p, scope, 10),
      );
      await both(
        (s) => lite.recentEditsInScope(s, scope, T0 + 4, 10),
        (p) => pq.recentEditsInScope(p, scope, T0 + 4, 10),
      );
      await both(
        (s) => lite.sessionThreadsInScope(s, 'a', scope, 10),
        (p) => pq.sessionThreadsInScope(p, 'a', scope, 10),
      );
    }
    expect(
      await both(
        (s) => lite.liveClaimsInScope(s, everywhere, 1),
        (p) => pq.liveClaimsInScope(p, everywhere, 1),
      ),
    ).toHaveLength(1);
    expect(
      await both(
        (s) => lite.recentEditsInScope(s, everywhere, 0, 1),
        (p) => pq.recentEditsInScope(p, everywhere, 0, 1),
      ),
    ).toHaveLength(1);
    expect(
      (
        await both(
          (s) => lite.openBlockerPosts(s, [r, other], 10, 10),
          (p) => pq.openBlockerPosts(p, [r, other], 10, 10),
        )
      ).map((b) => b.id),
    ).toEqual([ids[5]]);
    await both(
      (s) => lite.openBlockerPosts(s, [], 10, 10),
      (p) => pq.openBlockerPosts(p, [], 10, 10),
    );
    expect(
      await both(
        (s) => lite.existingTaskIds(s, [other, 999, r]),
        (p) => pq.existingTaskIds(p, [other, 999, r]),
      ),
    ).toHaveLength(2);
  });

  it('sums receipts alike and writes them alike', async () => {
    const windows = [
      { since: 0, until: T0 + 3 * HOUR },
      { since: T0 + HOUR, until: T0 + 2 * HOUR, operation: 'search' },
      { since: 0, until: 1 },
    ];
    for (const w of windows) {
      await both(
        (s) => lite.receiptTotals(s, w),
        (p) => pq.receiptTotals(p, w),
      );
      await both(
        (s) => lite.receiptErrorReasons(s, w),
        (p) => pq.receiptErrorReasons(p, w),
      );
      await both(
        (s) => lite.receiptsByHour(s, w),
        (p) => pq.receiptsByHour(p, w),
      );
    }
    const more = [receipt(T0 + 9, 'x', true), receipt(T0 + 10, 'x', false, 'E2')];
    await both(
      (s) => lite.insertReceipts(s, more),
      (p) => pq.insertReceipts(p, more),
    );
    await both(
      (s) => lite.insertReceipts(s, []),
      (p) => pq.insertReceipts(p, []),
    );
    expect(
      await both(
        (s) => lite.countCalls(s, 'a', 'x', T0 + 10),
        (p) => pq.countCalls(p, 'a', 'x', T0 + 10),
      ),
    ).toBe(1);
    expect(
      await both(
        (s) => lite.listReceipts(s, T0 + 9),
        (p) => pq.listReceipts(p, T0 + 9),
      ),
    ).toEqual([
      ...more,
      receipt(T0 + HOUR, 'task_post', false, 'E1'),
      receipt(T0 + HOUR + 5, 'search', true),
      receipt(T0 + 2 * HOUR, 'search', false, 'E1'),
    ]);
  });

  it('keeps context versions alike; of racing conditional writers exactly one wins', async () => {
    const w = (value: string) => ({ key: 'plan/a', value, agent: 'codex', now: T0 + 1 });
    expect(
      await both(
        (s) => lite.setContext(s, w('"v2"')),
        (p) => pq.setContext(p, w('"v2"')),
      ),
    ).toBe(2);
    expect(
      await both(
        (s) => lite.setContextIfVersion(s, w('3'), 1),
        (p) => pq.setContextIfVersion(p, w('3'), 1),
      ),
    ).toBeUndefined();
    expect(
      await both(
        (s) => lite.setContextIfVersion(s, w('3'), 2),
        (p) => pq.setContextIfVersion(p, w('3'), 2),
      ),
    ).toBe(3);
    expect(
      await both(
        (s) => lite.setContextIfVersion(s, w('3'), 0),
        (p) => pq.setContextIfVersion(p, w('3'), 0),
      ),
    ).toBeUndefined();
    await both(
      (s) => lite.getContext(s, 'plan/a'),
      (p) => pq.getContext(p, 'plan/a'),
    );
    expect(
      await both(
        (s) => lite.getContext(s, 'nope'),
        (p) => pq.getContext(p, 'nope'),
      ),
    ).toBeUndefined();
    expect(
      await both(
        (s) => lite.contextVersion(s, 'nope'),
        (p) => pq.contextVersion(p, 'nope'),
      ),
    ).toBe(0);
    expect(
      await both(
        (s) => lite.listContextKeys(s, 'plan/', 10),
        (p) => pq.listContextKeys(p, 'plan/', 10),
      ),
    ).toEqual(['plan/B', 'plan/a']);
    expect(
      await both(
        (s) => lite.listContextKeys(s, 'plan', 2),
        (p) => pq.listContextKeys(p, 'plan', 2),
      ),
    ).toHaveLength(2);
    const stores = [pgs, ...(await Promise.all([1, 2, 3, 4, 5].map(() => ctx.open({ url }))))];
    const racers = stores.map((p, i) =>
      pq.setContextIfVersion(p, { key: 'race', value: `${i}`, agent: `a${i}`, now: T0 }, 0),
    );
    expect((await Promise.all(racers)).filter((v) => v === 1)).toHaveLength(1);
    const bumps = stores.map((p, i) =>
      pq.setContextIfVersion(p, { key: 'race', value: `${i}`, agent: `a${i}`, now: T0 }, 1),
    );
    expect((await Promise.all(bumps)).filter((v) => v === 2)).toHaveLength(1);
  });

  it('writes vectors and task sums alike; another embedder replaces, the same one skips', async () => {
    await both(
      (s) => lite.maxObservationId(s),
      (p) => pq.maxObservationId(p),
    );
    await both(
      (s) => lite.observationsWithoutVector(s, 'e1', 0, ids[12] as number, 3),
      (p) => pq.observationsWithoutVector(p, 'e1', 0, ids[12] as number, 3),
    );
    const rows = [
      { observationId: ids[0] as number, taskId: r, vector: vec(1, 2) },
      { observationId: ids[1] as number, taskId: r, vector: vec(3, 4) },
    ];
    expect(
      await both(
        (s) => lite.insertVectors(s, 'e1', 2, rows),
        (p) => pq.insertVectors(p, 'e1', 2, rows),
      ),
    ).toBe(2);
    expect(
      await both(
        (s) => lite.insertVectors(s, 'e1', 2, rows),
        (p) => pq.insertVectors(p, 'e1', 2, rows),
      ),
    ).toBe(0);
    expect(
      await both(
        (s) => lite.taskVectorSums(s, 'e1'),
        (p) => pq.taskVectorSums(p, 'e1'),
      ),
    ).toEqual([{ taskId: r, sum: vec(4, 6), count: 2 }]);
    const moved = [{ observationId: ids[0] as number, taskId: r, vector: vec(5, 5) }];
    expect(
      await both(
        (s) => lite.insertVectors(s, 'e2', 2, moved),
        (p) => pq.insertVectors(p, 'e2', 2, moved),
      ),
    ).toBe(1);
    expect(
      await both(
        (s) => lite.taskVectorSums(s, 'e1'),
        (p) => pq.taskVectorSums(p, 'e1'),
      ),
    ).toEqual([]);
    expect(
      await both(
        (s) => lite.countVectors(s, 'e1'),
        (p) => pq.countVectors(p, 'e1'),
      ),
    ).toBe(1);
    expect([
      ...(await both(
        (s) => lite.vectorsOf(s, 'e2', [ids[0] as number, 999]),
        (p) => pq.vectorsOf(p, 'e2', [ids[0] as number, 999]),
      )),
    ]).toEqual([[ids[0], vec(5, 5)]]);
    await expect(pq.insertVectors(pgs, 'e1', 3, rows)).rejects.toThrow('vector of 2 dims, expected 3');
    await both(
      (s) => lite.observationsWithoutVector(s, 'e1', 0, ids[12] as number, 3),
      (p) => pq.observationsWithoutVector(p, 'e1', 0, ids[12] as number, 3),
    );
    // Four stores start the same task's first sum at once: every add is kept.
    const writers = await Promise.all([9, 10, 11, 12].map(() => ctx.open({ url })));
    await Promise.all(
      writers.map((p, i) =>
        pq.insertVectors(p, 'e3', 2, [{ observationId: ids[9 + i] as number, taskId: r, vector: vec(1, i) }]),
      ),
    );
    expect(await pq.taskVectorSums(pgs, 'e3')).toEqual([{ taskId: r, sum: vec(4, 6), count: 4 }]);
  });

  it('refines token counts and keeps examples alike', async () => {
    const refine = [
      { id: ids[0] as number, content: 'the parser breaks on tabs', tokenCount: 7 },
      { id: ids[1] as number, content: 'stale', tokenCount: 9 },
    ];
    await both(
      (s) => lite.refineTokenCounts(s, refine),
      (p) => pq.refineTokenCounts(p, refine),
    );
    expect(
      (
        await both(
          (s) => lite.getObservations(s, [ids[0] as number, ids[1] as number]),
          (p) => pq.getObservations(p, [ids[0] as number, ids[1] as number]),
        )
      ).map((o) => o.tokenCount),
    ).toEqual([7, 1]);
    const ex = {
      repoRoot: '/r',
      exampleName: 'ex',
      manifestKind: null,
      contentHash: 'h2',
      observationCount: 2,
      firstPatternId: ids[8] as number,
      lastPatternId: ids[8] as number,
      summary: { k: [2] },
      lastScannedAt: T0 + 1,
    };
    await both(
      (s) => s.write(() => lite.upsertExample(s, { ...ex, exampleName: 'aa' })),
      (p) => p.write(() => pq.upsertExample(p, { ...ex, exampleName: 'aa' })),
    );
    await both(
      (s) => s.write(() => lite.upsertExample(s, ex)),
      (p) => p.write(() => pq.upsertExample(p, ex)),
    );
    const listed = await both(
      (s) => lite.listExamples(s, '/r'),
      (p) => pq.listExamples(p, '/r'),
    );
    expect(listed.map((e) => [e.exampleName, e.contentHash, e.summary])).toEqual([
      ['aa', 'h2', { k: [2] }],
      ['ex', 'h2', { k: [2] }],
    ]);
    await both(
      (s) => s.write(() => lite.markExamplesScanned(s, [listed[1]?.id as number], T0 + 50)),
      (p) => p.write(() => pq.markExamplesScanned(p, [listed[1]?.id as number], T0 + 50)),
    );
    expect(
      (
        await both(
          (s) => lite.getExample(s, '/r', 'ex'),
          (p) => pq.getExample(p, '/r', 'ex'),
        )
      )?.lastScannedAt,
    ).toBe(T0 + 50);
    expect(
      await both(
        (s) => lite.getExample(s, '/r', 'none'),
        (p) => pq.getExample(p, '/r', 'none'),
      ),
    ).toBeUndefined();
    await both(
      (s) => s.write(() => lite.deleteExamples(s, [listed[1] as lite.ExampleRow])),
      (p) => p.write(() => pq.deleteExamples(p, [listed[1] as lite.ExampleRow])),
    );
    expect(
      await both(
        (s) => lite.searchExamplePatterns(s, '"backoff"', 5, 'ex'),
        (p) => pq.searchExamplePatterns(p, '"backoff"', 5, 'ex'),
      ),
    ).toEqual([]);
    expect(
      await both(
        (s) => lite.listExamples(s, '/r'),
        (p) => pq.listExamples(p, '/r'),
      ),
    ).toHaveLength(1);
  });
});
