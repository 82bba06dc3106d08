/**
 * Live memory search (hivemind_context's memory hits): BM25 with the newest
 * observations as corpus, read from FTS5's marked matches, so its cost follows live
 * work; older memory stays search's.
 */
import { MATCH_CLOSE, MATCH_OPEN, type MarkedMatch } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rankLiveMatches } from '../src/memory/live-rank';
import { createFixture, type Fixture, mainThread } from './_fixture';

let fx: Fixture;
let taskId: number;

beforeEach(async () => {
  fx = createFixture();
  taskId = await mainThread(fx, '/abs/repo');
});
afterEach(() => fx.close());

async function post(content: string): Promise<number> {
  fx.clock.advance(1);
  return (await fx.ok<{ id: number }>('task_post', { task_id: taskId, session_id: 'claude-1', kind: 'note', content }))
    .id;
}

const m = (term: string) => `${MATCH_OPEN}${term}${MATCH_CLOSE}`;

function match(id: number, marked: string): MarkedMatch {
  return { id, sessionId: 's', taskId: 1, kind: 'note', ts: id, replyTo: null, marked };
}

describe('rankLiveMatches', () => {
  it('is BM25 over the window when every match in it was read', () => {
    // Window of 10 rows; "relay" in 2 of them, "timeout" in 1. Equal lengths: no length effect.
    const rows = [match(9, `${m('relay')} ${m('timeout')} xx`), match(8, `${m('relay')} xxxxxxxx yyy`)];
    const [first, second] = rankLiveMatches(rows, { rows: 10, span: 10 });
    const idf = (n: number) => Math.log(1 + (10 - n + 0.5) / (n + 0.5));
    // tf 1, length = average: each term contributes idf * (1 * 2.2) / (1 + 1.2) = idf.
    expect(first!.match.id).toBe(9);
    expect(first!.score).toBeCloseTo(idf(2) + idf(1), 10);
    expect(second!.score).toBeCloseTo(idf(2), 10);
    expect(first!.content).toBe('relay timeout xx');
  });

  it('estimates window frequencies from the share of the window the matches read cover', () => {
    // The two matches read cover 5 of 100 ids: "relay" in both -> about 40 rows of the window.
    const rows = [match(100, `${m('relay')} a`), match(96, `${m('relay')} b`)];
    const [hit] = rankLiveMatches(rows, { rows: 100, span: 5 });
    expect(hit!.score).toBeCloseTo(Math.log(1 + (100 - 40 + 0.5) / (40 + 0.5)), 10);
  });

  it('counts stemmed forms as one term and breaks ties toward the newer row', () => {
    const rows = [match(3, `${m('claims')} xxxxx`), match(5, `${m('claim')} xxxxxx`), match(4, `${m('Claiming')} xxx`)];
    const ranked = rankLiveMatches(rows, { rows: 10, span: 10 });
    expect(new Set(ranked.map((r) => r.score.toFixed(9))).size).toBe(1);
    expect(ranked.map((r) => r.match.id)).toEqual([5, 4, 3]);
  });

  it('survives unpaired marks in stored text', () => {
    const [hit] = rankLiveMatches([match(1, `${MATCH_OPEN}relay never closed`)], { rows: 5, span: 5 });
    expect(hit!.score).toBe(0);
    expect(hit!.content).toBe('relay never closed');
  });
});

describe('MemoryService.liveSearch', () => {
  it('ranks the rows matching more (and rarer) query terms first', async () => {
    await post('relay notes for the gateway');
    const both = await post('relay stalled on a timeout in the gateway');
    await post('gateway relay retries');
    const hits = await fx.memory.liveSearch({ query: 'relay timeout', limit: 3 });
    expect(hits.map((h) => h.id)[0]).toBe(both);
    expect(hits).toHaveLength(3);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(Object.keys(hits[0]!).sort()).toEqual(['id', 'kind', 'score', 'session_id', 'snippet', 'task_id', 'ts']);
    expect(hits[0]!.snippet).toContain('timeout');
  });

  it('reads only the window: older memory is search’s', async () => {
    const old = await post('the flaky sandbox teardown leaked a port');
    for (let i = 0; i < 5; i++) await post(`unrelated note ${i}`);
    const recent = await post('sandbox teardown fixed by closing the server');
    expect(
      (await fx.memory.liveSearch({ query: 'sandbox teardown', limit: 5 }, { window: 3 })).map((h) => h.id),
    ).toEqual([recent]);
    expect((await fx.memory.search({ query: 'sandbox teardown', limit: 5 })).map((h) => h.id)).toEqual(
      expect.arrayContaining([old, recent]),
    );
  });

  it('ranks only the newest pool matches', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await post(`cache warmup step ${i}`));
    const hits = await fx.memory.liveSearch({ query: 'warmup', limit: 2 }, { pool: 3 });
    expect(hits.map((h) => h.id)).toEqual([ids[5], ids[4]]);
    // The pool never holds fewer than the limit.
    expect(await fx.memory.liveSearch({ query: 'warmup', limit: 5 }, { pool: 3 })).toHaveLength(5);
  });

  it('returns nothing for a query without terms, a zero limit or no match', async () => {
    await post('some text');
    expect(await fx.memory.liveSearch({ query: '  !!  ', limit: 3 })).toEqual([]);
    expect(await fx.memory.liveSearch({ query: 'text', limit: 0 })).toEqual([]);
    expect(await fx.memory.liveSearch({ query: 'absent', limit: 3 })).toEqual([]);
  });

  it('treats query text as terms, never as FTS5 syntax', async () => {
    const id = await post('merge NEAR conflict in "src/a.ts" (OR not)');
    expect((await fx.memory.liveSearch({ query: 'NEAR( "src OR a.ts * ^', limit: 3 })).map((h) => h.id)).toEqual([id]);
  });
});
