/**
 * Observations: the append-only history, its FTS5 index, and the compact timelines
 * the index tools read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handleOf } from '../src/_store';
import {
  countObservations,
  ensureTask,
  FTS_BATCH,
  ftsMatchExpression,
  getObservation,
  getObservations,
  indexPendingObservations,
  insertObservation,
  insertObservations,
  keywordSearch,
  type NewObservation,
  repliesTo,
  type Store,
  sessionTimeline,
  taskTimeline,
  taskUpdatesSince,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

function seedSessions(store: Store, ...ids: string[]): void {
  for (const id of ids) upsertSession(store, { id }, 0);
}

const obs = (sessionId: string, content: string, over: Partial<NewObservation> = {}): NewObservation => ({
  sessionId,
  kind: 'note',
  content,
  ts: 1,
  tokenCount: 1,
  ...over,
});

/** FTS5's own check that the index matches the observations it says it holds. */
function expectIndexIntact(store: Store): void {
  const { sqlite } = handleOf(store);
  const { through } = sqlite.prepare('SELECT through FROM observations_fts_indexed').get() as { through: number };
  // An external-content index is checked against the content table: only when nothing is pending.
  const pending = sqlite.prepare('SELECT count(*) AS n FROM observations WHERE id > ?').get(through) as { n: number };
  if (pending.n === 0)
    sqlite.prepare(`INSERT INTO observations_fts (observations_fts) VALUES ('integrity-check')`).run();
  // The index holds exactly the rows at or below the mark.
  const indexed = sqlite.prepare(`SELECT count(*) AS n FROM observations_fts_docsize`).get() as { n: number };
  const below = sqlite.prepare('SELECT count(*) AS n FROM observations WHERE id <= ?').get(through) as { n: number };
  expect(indexed.n).toBe(below.n);
}

function search(store: Store, query: string, mode: 'all' | 'any' = 'all', limit = 10) {
  const match = ftsMatchExpression(query, mode);
  return match === null ? [] : keywordSearch(store, match, limit);
}

describe('ftsMatchExpression', () => {
  it('quotes each distinct lower-cased term, joined by AND (space) or OR', () => {
    expect(ftsMatchExpression('Auth middleware AUTH', 'all')).toBe('"auth" "middleware"');
    expect(ftsMatchExpression('auth middleware', 'any')).toBe('"auth" OR "middleware"');
  });

  it('reads FTS5 operators and punctuation as plain words or nothing', () => {
    expect(ftsMatchExpression('foo AND NEAR(bar*) -baz "qux', 'all')).toBe('"foo" "and" "near" "bar" "baz" "qux"');
    expect(ftsMatchExpression('*** -- "" ()', 'all')).toBeNull();
    expect(ftsMatchExpression('', 'any')).toBeNull();
  });

  it('caps a query at 32 terms', () => {
    const query = Array.from({ length: 40 }, (_, i) => `t${i}`).join(' ');
    expect(ftsMatchExpression(query, 'any')?.split(' OR ')).toHaveLength(32);
  });
});

describeMatrix('full-text search', ({ open }) => {
  it('finds an observation by its words exactly when it is committed', async () => {
    const store = open();
    seedSessions(store, 's1');
    const [hit, miss] = await insertObservations(store, [
      obs('s1', 'The auth middleware rejects expired tokens'),
      obs('s1', 'Unrelated note about the build cache'),
    ]);
    const hits = search(store, 'auth middleware');
    expect(hits.map((h) => h.id)).toEqual([hit]);
    expect(hits[0]).toMatchObject({
      sessionId: 's1',
      kind: 'note',
      content: 'The auth middleware rejects expired tokens',
    });
    expect(typeof hits[0]?.rank).toBe('number');
    expect(search(store, 'build cache').map((h) => h.id)).toEqual([miss]);
  });

  it('matches stems and ignores case and diacritics', async () => {
    const store = open();
    seedSessions(store, 's1');
    const id = await insertObservation(store, obs('s1', 'Refactored the Middlewares for the café'));
    await indexPendingObservations(store);
    expect(search(store, 'middleware').map((h) => h.id)).toEqual([id]);
    expect(search(store, 'CAFE').map((h) => h.id)).toEqual([id]);
    expect(search(store, 'refactoring').map((h) => h.id)).toEqual([id]);
  });

  it('requires every term in all mode and any term in any mode', async () => {
    const store = open();
    seedSessions(store, 's1');
    const [both, onlyAuth] = await insertObservations(store, [obs('s1', 'auth middleware'), obs('s1', 'auth only')]);
    expect(search(store, 'auth middleware', 'all').map((h) => h.id)).toEqual([both]);
    expect(new Set(search(store, 'auth middleware', 'any').map((h) => h.id))).toEqual(new Set([both, onlyAuth]));
  });

  it('ranks by BM25 (lower rank first) and honours the limit', async () => {
    const store = open();
    seedSessions(store, 's1');
    await insertObservations(store, [
      obs('s1', 'sqlite once among many other unrelated words in a long long sentence here'),
      obs('s1', 'sqlite sqlite sqlite'),
    ]);
    const hits = search(store, 'sqlite');
    expect(hits).toHaveLength(2);
    expect(hits[0]!.rank).toBeLessThanOrEqual(hits[1]!.rank);
    expect(hits[0]!.content).toBe('sqlite sqlite sqlite');
    expect(search(store, 'sqlite', 'all', 1)).toHaveLength(1);
  });

  it('filters by kind, task and session', async () => {
    const store = open();
    seedSessions(store, 's1', 's2');
    const task = ensureTask(store, { repoRoot: '/r', branch: 'main' }, 0).task;
    const [note, decision, other] = await insertObservations(store, [
      obs('s1', 'cache decision pending', { taskId: task.id }),
      obs('s1', 'cache decision made', { kind: 'decision', taskId: task.id }),
      obs('s2', 'cache decision elsewhere', { kind: 'decision' }),
    ]);
    const match = ftsMatchExpression('cache decision', 'all')!;
    expect(
      keywordSearch(store, match, 10, { kind: 'decision' })
        .map((h) => h.id)
        .sort(),
    ).toEqual([decision, other].sort());
    expect(
      keywordSearch(store, match, 10, { taskId: task.id })
        .map((h) => h.id)
        .sort(),
    ).toEqual([note, decision].sort());
    expect(keywordSearch(store, match, 10, { sessionId: 's2' }).map((h) => h.id)).toEqual([other]);
    expect(keywordSearch(store, match, 1, { kind: 'decision', sessionId: 's1' }).map((h) => h.id)).toEqual([decision]);
  });

  it('re-indexes an observation whose content is updated, and forgets a deleted one', async () => {
    const store = open();
    seedSessions(store, 's1');
    const id = await insertObservation(store, obs('s1', 'original wording about pelicans'));
    await indexPendingObservations(store);
    const { sqlite } = handleOf(store);
    sqlite.prepare('UPDATE observations SET content = ? WHERE id = ?').run('revised wording about flamingos', id);
    expect(search(store, 'pelicans')).toEqual([]);
    expect(search(store, 'flamingos').map((h) => h.id)).toEqual([id]);
    sqlite.prepare('DELETE FROM observations WHERE id = ?').run(id);
    expect(search(store, 'flamingos')).toEqual([]);
    expect(search(store, 'wording')).toEqual([]);
    expectIndexIntact(store);
  });

  it('updates and deletes of rows not indexed yet leave the index whole; the batch indexes their last content', async () => {
    const store = open();
    seedSessions(store, 's1');
    const [kept, gone] = [
      await insertObservation(store, obs('s1', 'original wording about pelicans')),
      await insertObservation(store, obs('s1', 'doomed wording about herons')),
    ];
    const { sqlite } = handleOf(store);
    // Neither row is indexed: the triggers must not touch the index for them.
    expect(search(store, 'wording')).toEqual([]);
    sqlite.prepare('UPDATE observations SET content = ? WHERE id = ?').run('revised wording about flamingos', kept);
    sqlite.prepare('DELETE FROM observations WHERE id = ?').run(gone);
    expectIndexIntact(store);
    expect(await indexPendingObservations(store)).toBe(1);
    expect(search(store, 'pelicans')).toEqual([]);
    expect(search(store, 'herons')).toEqual([]);
    expect(search(store, 'flamingos').map((h) => h.id)).toEqual([kept]);
    expectIndexIntact(store);
  });

  it('indexes a single insert with the next batch: a search first indexes what is pending', async () => {
    const store = open();
    seedSessions(store, 's1');
    const first = await insertObservation(store, obs('s1', 'batched wording about otters'));
    expect(search(store, 'otters')).toEqual([]);
    expect(await indexPendingObservations(store)).toBe(1);
    expect(search(store, 'otters').map((h) => h.id)).toEqual([first]);
    expect(await indexPendingObservations(store)).toBe(0);
    // FTS_BATCH - 1 more inserts wait; the FTS_BATCH-th indexes them all in its own write.
    const ids: number[] = [];
    for (let i = 1; i < FTS_BATCH; i++) ids.push(await insertObservation(store, obs('s1', `beaver note ${i}`)));
    expect(search(store, 'beaver', 'all', 1000)).toEqual([]);
    ids.push(await insertObservation(store, obs('s1', `beaver note ${FTS_BATCH}`)));
    expect(new Set(search(store, 'beaver', 'all', 1000).map((h) => h.id))).toEqual(new Set(ids));
    expect(await indexPendingObservations(store)).toBe(0);
    expectIndexIntact(store);
  });

  it('a rolled-back insert leaves nothing pending and nothing indexed', async () => {
    const store = open();
    seedSessions(store, 's1');
    await expect(
      store.write(async () => {
        await insertObservation(store, obs('s1', 'ghost wording'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await indexPendingObservations(store)).toBe(0);
    expect(search(store, 'ghost')).toEqual([]);
    const id = await insertObservation(store, obs('s1', 'real ghost wording'));
    expect(await indexPendingObservations(store)).toBe(1);
    expect(search(store, 'ghost').map((h) => h.id)).toEqual([id]);
    expectIndexIntact(store);
  });

  it('never throws on queries full of FTS5 syntax', async () => {
    const store = open();
    seedSessions(store, 's1');
    await insertObservation(store, obs('s1', 'near and or not quoted star minus content'));
    await indexPendingObservations(store);
    const nasty = [
      '"',
      '"unbalanced',
      "it's",
      'AND',
      'foo AND',
      'OR OR',
      'NOT',
      'NEAR(',
      'NEAR(a b, 2)',
      '*',
      'star*',
      '-',
      '-minus',
      'col:value',
      '^start',
      '(((',
      '{a b}',
      '+',
      '\u0000',
      '🦀 emoji',
      'near and or not',
    ];
    for (const query of nasty) {
      for (const mode of ['all', 'any'] as const) {
        expect(() => search(store, query, mode), `${mode}: ${JSON.stringify(query)}`).not.toThrow();
        const match = ftsMatchExpression(query, mode);
        if (match !== null) expect(() => keywordSearch(store, match, 5, { kind: 'note' })).not.toThrow();
      }
    }
    expect(search(store, 'NEAR( AND "quoted"').map((h) => h.content)).toEqual([
      'near and or not quoted star minus content',
    ]);
  });

  it('never throws for any query text (property)', async () => {
    const store = open();
    seedSessions(store, 's1');
    await insertObservation(store, obs('s1', 'alpha beta gamma'));
    const fragment = fc.oneof(
      fc.string({ maxLength: 12 }),
      // Any code point, lone surrogates included (cheaper than fast-check's 'binary' unit to set up).
      fc
        .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 12 })
        .map((points) => points.map((p) => String.fromCodePoint(p)).join('')),
      fc.constantFrom('"', '*', '-', 'AND', 'OR', 'NOT', 'NEAR(', ')', ':', '^', '_', '\u0301', 'ǅ', '٣', '²'),
    );
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 8 }),
        fc.constantFrom('all' as const, 'any' as const),
        (parts, mode) => {
          const match = ftsMatchExpression(parts.join(' '), mode);
          if (match !== null) {
            keywordSearch(store, match, 5);
            keywordSearch(store, match, 5, { kind: 'note' });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describeMatrix('reading observations', ({ open }) => {
  it('returns bodies in the order the ids were asked for, skipping unknown ids', async () => {
    const store = open();
    seedSessions(store, 's1');
    const [a, b, c] = await insertObservations(store, [obs('s1', 'a'), obs('s1', 'b'), obs('s1', 'c')]);
    expect(getObservations(store, [c!, a!, 9999, b!]).map((o) => o.content)).toEqual(['c', 'a', 'b']);
    expect(getObservations(store, [])).toEqual([]);
    expect(getObservation(store, 9999)).toBeUndefined();
  });

  it('round-trips metadata as JSON and reply_to links', async () => {
    const store = open();
    seedSessions(store, 's1');
    const first = await insertObservation(store, obs('s1', 'q', { metadata: { working: true, ids: [1, 2] } }));
    const reply = await insertObservation(store, obs('s1', 'a', { replyTo: first }));
    expect(getObservation(store, first)?.metadata).toEqual({ working: true, ids: [1, 2] });
    expect(getObservation(store, reply)?.replyTo).toBe(first);
    expect(repliesTo(store, first)).toEqual([reply]);
    expect(countObservations(store)).toBe(2);
  });

  it('appends a batch atomically: one bad row writes none', async () => {
    const store = open();
    seedSessions(store, 's1');
    await expect(insertObservations(store, [obs('s1', 'fine'), obs('ghost', 'unknown session')])).rejects.toThrow();
    expect(countObservations(store)).toBe(0);
  });
});

describeMatrix('sessionTimeline', ({ open }) => {
  /** Ten observations of s1 interleaved with ones of s2; returns s1's ids. */
  async function seed(store: Store): Promise<number[]> {
    seedSessions(store, 's1', 's2');
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push(await insertObservation(store, obs('s1', `s1 #${i}`, { ts: i })));
      await insertObservation(store, obs('s2', `s2 #${i}`, { ts: i }));
    }
    return ids;
  }

  it('without around_id returns the newest `limit` of that session, oldest first', async () => {
    const store = open();
    const ids = await seed(store);
    expect(sessionTimeline(store, 's1', 3).map((r) => r.id)).toEqual(ids.slice(7));
    expect(sessionTimeline(store, 's1', 50).map((r) => r.id)).toEqual(ids);
    expect(sessionTimeline(store, 'nobody', 5)).toEqual([]);
  });

  it('centres a window of `limit` on around_id', async () => {
    const store = open();
    const ids = await seed(store);
    expect(sessionTimeline(store, 's1', 4, ids[5]).map((r) => r.id)).toEqual(ids.slice(4, 8));
    expect(sessionTimeline(store, 's1', 5, ids[5]).map((r) => r.id)).toEqual(ids.slice(3, 8));
    expect(sessionTimeline(store, 's1', 1, ids[5]).map((r) => r.id)).toEqual([ids[5]]);
  });

  it('fills the window from the other side at either end of the session', async () => {
    const store = open();
    const ids = await seed(store);
    expect(sessionTimeline(store, 's1', 4, ids[0]).map((r) => r.id)).toEqual(ids.slice(0, 4));
    expect(sessionTimeline(store, 's1', 4, ids[9]).map((r) => r.id)).toEqual(ids.slice(6, 10));
    expect(sessionTimeline(store, 's1', 50, ids[3]).map((r) => r.id)).toEqual(ids);
  });

  it('always returns a full, contiguous, ascending window holding around_id (property)', async () => {
    const store = open();
    seedSessions(store, 's1');
    const ids = await insertObservations(
      store,
      Array.from({ length: 30 }, (_, i) => obs('s1', `#${i}`)),
    );
    fc.assert(
      fc.property(fc.nat({ max: 29 }), fc.integer({ min: 1, max: 40 }), (at, limit) => {
        const window = sessionTimeline(store, 's1', limit, ids[at]).map((r) => r.id);
        expect(window).toContain(ids[at]);
        expect(window).toHaveLength(Math.min(limit, ids.length));
        const first = ids.indexOf(window[0]!);
        expect(window).toEqual(ids.slice(first, first + window.length));
        // Centred: no more than half the window (rounded up, around_id included) lies at or before it,
        // unless the newer side ran out.
        const atOrBefore = window.indexOf(ids[at]!) + 1;
        if (at + (limit - atOrBefore) < ids.length - 1) expect(atOrBefore).toBeLessThanOrEqual(Math.ceil(limit / 2));
      }),
      { numRuns: 100 },
    );
  });

  it('returns compact refs only: no body', async () => {
    const store = open();
    const ids = await seed(store);
    const [ref] = sessionTimeline(store, 's1', 1, ids[2]);
    expect(ref).toEqual({ id: ids[2], sessionId: 's1', taskId: null, kind: 'note', ts: 2, replyTo: null });
  });
});

describeMatrix('task timelines', ({ open }) => {
  it('lists a task newest first and its updates since a time oldest first, without one session', async () => {
    const store = open();
    seedSessions(store, 'me', 'you');
    const task = ensureTask(store, { repoRoot: '/r', branch: 'main' }, 0).task;
    const other = ensureTask(store, { repoRoot: '/r', branch: 'dev' }, 0).task;
    const mine = await insertObservation(store, obs('me', 'mine', { taskId: task.id, ts: 10 }));
    const early = await insertObservation(store, obs('you', 'early', { taskId: task.id, ts: 5 }));
    const late = await insertObservation(store, obs('you', 'late', { taskId: task.id, ts: 20 }));
    await insertObservation(store, obs('you', 'elsewhere', { taskId: other.id, ts: 30 }));

    expect(taskTimeline(store, task.id, 10).map((r) => r.id)).toEqual([late, early, mine]);
    expect(taskTimeline(store, task.id, 1).map((r) => r.id)).toEqual([late]);
    expect(taskUpdatesSince(store, task.id, 0, 10).map((r) => r.id)).toEqual([early, mine, late]);
    expect(taskUpdatesSince(store, task.id, 0, 10, 'me').map((r) => r.id)).toEqual([early, late]);
    expect(taskUpdatesSince(store, task.id, 5, 10, 'me').map((r) => r.id)).toEqual([late]);
    expect(taskUpdatesSince(store, task.id, 20, 10)).toEqual([]);
    expect(taskUpdatesSince(store, task.id, 0, 1, 'me').map((r) => r.id)).toEqual([early]);
  });
});
