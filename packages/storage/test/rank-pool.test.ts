import { describe, expect, it } from 'vitest';
import { ftsMatchExpression, insertObservations, keywordSearch, RANK_POOL, upsertSession } from '../src/index';
import { describeMatrix } from './_matrix';

describeMatrix('keywordSearch ranking pool', ({ open }) => {
  it('ranks the newest RANK_POOL matches of a broad query, best first and newest on ties', async () => {
    const store = open();
    await store.write(() => upsertSession(store, { id: 's' }, 1));
    const note = (content: string, ts: number) => ({ sessionId: 's', kind: 'note', content, ts, tokenCount: 1 });
    // The oldest match is the strongest, but falls outside the pool of newest matches.
    const rows = [note('deploy deploy deploy deploy rollback', 0)];
    for (let i = 1; i <= RANK_POOL + 50; i++) rows.push(note(`routine deploy note number ${i} with filler words`, i));
    rows.push(note('deploy deploy deploy hotfix', RANK_POOL + 51));
    const ids = await insertObservations(store, rows);

    const hits = keywordSearch(store, ftsMatchExpression('deploy', 'all')!, 5);
    expect(hits).toHaveLength(5);
    expect(hits[0]?.id).toBe(ids.at(-1));
    expect(hits.map((h) => h.id)).not.toContain(ids[0]);
    const ranks = hits.map((h) => h.rank);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
  });

  it('still finds an old observation when the query is specific', async () => {
    const store = open();
    await store.write(() => upsertSession(store, { id: 's' }, 1));
    const rows = [{ sessionId: 's', kind: 'note', content: 'deploy rollback procedure', ts: 0, tokenCount: 1 }];
    for (let i = 1; i <= RANK_POOL + 50; i++)
      rows.push({ sessionId: 's', kind: 'note', content: `deploy ${i}`, ts: i, tokenCount: 1 });
    const [first] = await insertObservations(store, rows);
    const hits = keywordSearch(store, ftsMatchExpression('deploy rollback', 'all')!, 5);
    expect(hits.map((h) => h.id)).toEqual([first]);
  });
});

describe('RANK_POOL', () => {
  it('is large enough for a full page of ranker candidates', () => {
    expect(RANK_POOL).toBeGreaterThanOrEqual(200);
  });
});
