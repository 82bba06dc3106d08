/**
 * Hybrid search: BM25 candidates re-ranked by `alpha * keyword + (1 - alpha) *
 * similarity`. alpha 1 is the keyword order exactly; alpha 0 orders the candidates by
 * similarity; rows without a vector are still found; a failing embedder leaves the
 * keyword order with a warning.
 */
import type { SearchHit } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Embedder, hashingEmbedder, VectorIndex } from '../src/index';
import { dot } from '../src/memory/embedder';
import { hybridRanker } from '../src/memory/hybrid-ranker';
import { MemoryService } from '../src/memory/memory-service';
import { createFixture, type Fixture } from './_fixture';

let fx: Fixture;
let taskId: number;

const QUERY = 'releasing stale claims';
const NOTES = [
  'stale claims',
  'The handoff expired so its stale claims weakened; cleanup job releases stale claims of dead sessions nightly',
  'stale claims claims claims',
  'claims about stale bread',
  'Release stale claims after relay timeout',
];

beforeEach(async () => {
  fx = createFixture();
  taskId = (
    await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: fx.repo('repo'),
      branch: 'main',
      session_id: 'claude-1',
      agent: 'claude',
    })
  ).task_id;
  for (const content of NOTES) await post(content);
});
afterEach(() => fx.close());

async function post(content: string): Promise<number> {
  fx.clock.advance(1000);
  return (await fx.ok<{ id: number }>('task_post', { task_id: taskId, session_id: 'claude-1', kind: 'note', content }))
    .id;
}

function searchWith(alpha: number, index: VectorIndex = fx.index, limit = 10): Promise<SearchHit[]> {
  const memory = new MemoryService(
    {
      store: fx.store,
      clock: fx.clock,
      tokens: { count: () => 0 },
      settings: { bridge: { writeOmxNotepadPointer: false } },
    },
    { rankers: [hybridRanker(index, alpha)] },
  );
  return memory.search({ query: QUERY, limit });
}

const keywordOrder = (limit = 10) => fx.memory.search({ query: QUERY, limit });
const ids = (hits: readonly SearchHit[]) => hits.map((h) => h.id);

describe('hybrid search', () => {
  it('with alpha 1 returns the BM25 order and scores exactly', async () => {
    await fx.index.backfill();
    expect(await searchWith(1)).toEqual(await keywordOrder());
  });

  it('with alpha 0 orders the keyword candidates by similarity to the query', async () => {
    await fx.index.backfill();
    const [q] = hashingEmbedder().embed([QUERY]);
    const vectors = await fx.index.vectorsOf(ids(await keywordOrder()));
    const bySimilarity = [...vectors]
      .map(([id, v]) => ({ id, s: Math.max(0, dot(q!, v)) }))
      .sort((a, b) => b.s - a.s || 0)
      .map((e) => e.id);
    const hits = await searchWith(0);
    expect(ids(hits)).toEqual(bySimilarity);
    expect(hits[0]!.score).toBeCloseTo(Math.max(0, dot(q!, vectors.get(bySimilarity[0]!)!)), 3);
    // The note matching every term (stemmed) wins on keywords; the closest wording on similarity.
    expect((await keywordOrder())[0]!.snippet).toBe(NOTES[4]);
    expect(hits[0]!.snippet).toBe(NOTES[0]);
  });

  it('blends by alpha: keyword scaled to 0..1 among the candidates, plus weighted similarity', async () => {
    await fx.index.backfill();
    const keyword = await keywordOrder();
    const [q] = hashingEmbedder().embed([QUERY]);
    const vectors = await fx.index.vectorsOf(ids(keyword));
    const max = keyword[0]!.score;
    const min = keyword[keyword.length - 1]!.score;
    const expected = new Map(
      keyword.map((h) => [
        h.id,
        0.3 * ((h.score - min) / (max - min)) + 0.7 * Math.max(0, dot(q!, vectors.get(h.id)!)),
      ]),
    );
    const hits = await searchWith(0.3);
    for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.id)!, 2);
    const scores = hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('still finds rows that have no vector yet, ranked by their keyword standing', async () => {
    await fx.index.backfill();
    const fresh = await post('releasing stale claims, written after the backfill');
    const hits = await searchWith(0.5);
    expect(ids(hits)).toContain(fresh);
    expect((await fx.index.vectorsOf([fresh])).size).toBe(0);
  });

  it('ranks by keywords alone while no row has a vector', async () => {
    expect(await searchWith(0.5)).toEqual(await keywordOrder());
  });

  it('falls back to the BM25 order with one warning when the embedder fails', async () => {
    await fx.index.backfill();
    const warnings: string[] = [];
    const failing: Embedder = {
      id: 'hash-v1-256',
      dims: 256,
      embed: () => {
        throw new Error('onnx session lost');
      },
    };
    const index = new VectorIndex(fx.store, { embedder: failing, onWarning: (m) => warnings.push(m) });
    expect(await searchWith(0.5, index)).toEqual(await keywordOrder());
    expect(await searchWith(0.5, index)).toEqual(await keywordOrder());
    expect(warnings).toEqual([expect.stringMatching(/onnx session lost.*BM25/)]);
  });
});
