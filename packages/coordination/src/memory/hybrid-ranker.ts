/**
 * @module memory/hybrid-ranker
 * The vector blend of search: keyword candidates re-ranked by
 * `alpha * keyword + (1 - alpha) * similarity`, where `keyword` is the candidate's BM25
 * score scaled to 0..1 within the candidates and `similarity` the cosine between the
 * query's vector and the row's (below 0 counts as 0). `alpha` is
 * `settings.search.alpha`: 1 is keywords alone, 0 similarity alone (among the keyword
 * candidates). A row without a vector yet takes the mean similarity of the candidates
 * that have one, so lacking a vector neither promotes nor demotes it: it keeps its
 * keyword standing. Candidates only come from keyword retrieval: a brute-force scan of
 * every vector costs ~17 ms at 100k x 256 (measured), far past search's 2 ms budget.
 */
import { dot } from './embedder';
import type { SearchCandidate, SearchRanker } from './memory-service';
import type { VectorIndex } from './vector-index';

export function hybridRanker(index: VectorIndex, alpha: number): SearchRanker {
  return async (query, candidates) => {
    if (alpha >= 1 || candidates.length === 0) return candidates;
    const vectors = await index.vectorsOf(candidates.map((c) => c.hit.id));
    if (vectors.size === 0) return candidates;
    const q = index.embedQuery(query);
    if (!q) return candidates;
    return blend(candidates, vectors, q, alpha);
  };
}

function blend(
  candidates: readonly SearchCandidate[],
  vectors: ReadonlyMap<number, Float32Array>,
  q: Float32Array,
  alpha: number,
): SearchCandidate[] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const c of candidates) {
    min = Math.min(min, c.score);
    max = Math.max(max, c.score);
  }
  const similarity = new Map<number, number>();
  let total = 0;
  for (const [id, v] of vectors) {
    const s = Math.max(0, dot(q, v));
    similarity.set(id, s);
    total += s;
  }
  const mean = total / vectors.size;
  const scored = candidates.map((c, order) => {
    const keyword = max > min ? (c.score - min) / (max - min) : 1;
    const score = alpha * keyword + (1 - alpha) * (similarity.get(c.hit.id) ?? mean);
    return { hit: c.hit, score, order };
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map(({ hit, score }) => ({ hit, score }));
}
