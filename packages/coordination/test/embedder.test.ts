/**
 * The default embedder: deterministic feature hashing, unit vectors, and similarity
 * that follows shared words and word pieces.
 */
import { describe, expect, it } from 'vitest';
import { hashingEmbedder } from '../src/index';
import { dot } from '../src/memory/embedder';

const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

describe('hashingEmbedder', () => {
  it('gives the same vector for the same text, across instances and calls', () => {
    const [a] = hashingEmbedder().embed(['Release stale claims after a quota relay']);
    const [b] = hashingEmbedder().embed(['Release stale claims after a quota relay']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(hashingEmbedder().id).toBe('hash-v1-256');
  });

  it('returns one L2-normalized vector of dims values per text, in order', () => {
    const e = hashingEmbedder({ dims: 64 });
    const vectors = e.embed(['alpha beta', 'gamma', 'delta epsilon zeta']);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(64);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(e.id).toBe('hash-v1-64');
  });

  it('maps a text without words to the zero vector', () => {
    const [v] = hashingEmbedder().embed(['  --- !!! ']);
    expect(norm(v!)).toBe(0);
  });

  it('scores related texts well above unrelated ones', () => {
    const [query, related, unrelated] = hashingEmbedder().embed([
      'quota relay stale claims cleanup',
      'Cleaning up stale claims after a quota relay expired',
      'Add a dark mode toggle to the settings page',
    ]);
    expect(dot(query!, related!)).toBeGreaterThan(0.4);
    expect(Math.abs(dot(query!, unrelated!))).toBeLessThan(0.15);
  });

  it('relates word forms through shared trigrams, and ignores case, accents and camelCase', () => {
    const [plural, singular, other] = hashingEmbedder().embed(['migrations', 'migration', 'toggle']);
    expect(dot(plural!, singular!)).toBeGreaterThan(0.5);
    expect(dot(plural!, other!)).toBeLessThan(0.2);
    const [a, b] = hashingEmbedder().embed(['claimFile Café', 'claim file cafe']);
    expect(dot(a!, b!)).toBeCloseTo(1, 5);
  });

  it('refuses a dims too small to hash into', () => {
    expect(() => hashingEmbedder({ dims: 4 })).toThrow(/dims/);
  });
});
