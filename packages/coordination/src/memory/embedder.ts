/**
 * @module memory/embedder
 * What turns text into vectors for hybrid search and suggestions, and the default that
 * needs no network and no download: feature hashing. Each normalized word token and
 * each character trigram of a word is hashed to one of `dims` slots with a hashed sign
 * (so collisions cancel out on average instead of piling up), then the vector is
 * L2-normalized. Texts sharing words or word pieces (`migration`, `migrations`) point the
 * same way; it knows no synonyms. A real model plugs in through the same interface.
 */

/**
 * Turns texts into vectors. `id` names the model and its settings: vectors of different
 * ids are never compared, so change it whenever the vectors would change. `embed` is
 * synchronous (search embeds the query inside a synchronous tool call) and returns one
 * L2-normalized Float32Array of `dims` values per text, in order.
 */
export interface Embedder {
  readonly id: string;
  readonly dims: number;
  embed(texts: readonly string[]): Float32Array[];
}

export interface HashingEmbedderOptions {
  /** Vector size (default 256). */
  readonly dims?: number;
  /** Characters of each text read (default 2,000): the opening says what a note is about. */
  readonly maxChars?: number;
}

export const DEFAULT_EMBEDDING_DIMS = 256;
const DEFAULT_MAX_CHARS = 2_000;
/** A trigram counts this much against a whole word. */
const TRIGRAM_WEIGHT = 0.5;
const WORD = /[\p{L}\p{N}]+/gu;

/** The default embedder: deterministic feature hashing over words and character trigrams. */
export function hashingEmbedder(options: HashingEmbedderOptions = {}): Embedder {
  const dims = options.dims ?? DEFAULT_EMBEDDING_DIMS;
  if (!Number.isInteger(dims) || dims < 8) throw new Error(`embedding dims must be an integer >= 8, not ${dims}`);
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  return {
    id: `hash-v1-${dims}`,
    dims,
    embed: (texts) => texts.map((text) => embedOne(text, dims, maxChars)),
  };
}

function embedOne(text: string, dims: number, maxChars: number): Float32Array {
  const vector = new Float32Array(dims);
  const words = normalize(text.slice(0, maxChars)).match(WORD) ?? [];
  for (const word of words) {
    add(vector, `w:${word}`, 1);
    if (word.length < 3) continue;
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(vector, padded.slice(i, i + 3), TRIGRAM_WEIGHT);
  }
  return normalizeL2(vector);
}

/** Lowercase, accents folded, camelCase split (`claimFile` -> `claim file`). */
function normalize(text: string): string {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

function add(vector: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  const slot = (h >>> 1) % vector.length;
  vector[slot] = (vector[slot] as number) + (h & 1 ? weight : -weight);
}

/** FNV-1a, 32 bits, over UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Scales to unit length in place (a zero vector stays zero). */
export function normalizeL2(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += (vector[i] as number) ** 2;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  return vector;
}

/** Dot product: the cosine similarity of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
