/**
 * @module memory/live-rank
 * BM25 over the live window, for startup memory hits whose cost must follow live work,
 * not history. FTS5's bm25() reads every query term's whole doclist to count the rows
 * containing it, so it slows as history grows (0.5 -> 1.0 ms for four terms, 1.4 ->
 * 2.7 ms for a lane-title query, 5,000 -> 40,000 observations). Here the corpus is
 * the window (the newest observations) and the statistics come from the newest
 * matches alone: each match arrives with its matched tokens marked by FTS5 (its own
 * porter tokenizer), term frequencies are read from the marks, and a term's document
 * frequency in the window is estimated from its share of the matches read, scaled by
 * the span of the window they cover (exact when every match in the window was read).
 */
import { MATCH_CLOSE, MATCH_OPEN, type MarkedMatch } from '@swarm/storage';
import { stemmer } from 'stemmer';

/** BM25's term-frequency saturation and length normalisation (FTS5's defaults). */
const K1 = 1.2;
const B = 0.75;

export interface LiveWindow {
  /** Observations in the window (its corpus size). */
  readonly rows: number;
  /** Ids the matches read cover, newest down to the oldest read (the window's size when every match was read). */
  readonly span: number;
}

export interface RankedMatch {
  readonly match: MarkedMatch;
  /** BM25 over the window, higher is better. */
  readonly score: number;
  /** The body without marks. */
  readonly content: string;
}

/** Matches ranked by BM25 over the window, best first; ties go to the newer row. */
export function rankLiveMatches(matches: readonly MarkedMatch[], window: LiveWindow): RankedMatch[] {
  if (matches.length === 0) return [];
  const docs = matches.map((match) => ({ match, tf: termFrequencies(match.marked), length: match.marked.length }));
  const df = new Map<string, number>();
  let totalLength = 0;
  for (const doc of docs) {
    totalLength += doc.length;
    for (const term of doc.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = Math.max(window.rows, matches.length);
  const scale = n / Math.max(1, Math.min(window.span, n));
  const averageLength = totalLength / docs.length;
  const idf = new Map<string, number>();
  for (const [term, count] of df) {
    const inWindow = Math.min(n, count * scale);
    idf.set(term, Math.log(1 + (n - inWindow + 0.5) / (inWindow + 0.5)));
  }
  const ranked = docs.map((doc) => {
    const norm = K1 * (1 - B + (B * doc.length) / averageLength);
    let score = 0;
    for (const [term, f] of doc.tf) score += ((idf.get(term) ?? 0) * f * (K1 + 1)) / (f + norm);
    return { match: doc.match, score, content: unmark(doc.match.marked) };
  });
  return ranked.sort((a, b) => b.score - a.score || b.match.id - a.match.id);
}

/** Matched tokens by stem (the index stems with porter, so "claims" counts as "claim"). */
function termFrequencies(marked: string): Map<string, number> {
  const tf = new Map<string, number>();
  let open = marked.indexOf(MATCH_OPEN);
  while (open >= 0) {
    const close = marked.indexOf(MATCH_CLOSE, open + 1);
    if (close < 0) break;
    const term = stem(marked.slice(open + 1, close).toLowerCase());
    tf.set(term, (tf.get(term) ?? 0) + 1);
    open = marked.indexOf(MATCH_OPEN, close + 1);
  }
  return tf;
}

const MARKS = new RegExp(`[${MATCH_OPEN}${MATCH_CLOSE}]`, 'g');

function unmark(marked: string): string {
  return marked.replace(MARKS, '');
}

/** Stems seen, memoised: matched tokens repeat from call to call. Bounded: cleared when full. */
const STEMS = new Map<string, string>();
const STEM_MEMO_LIMIT = 10_000;

function stem(token: string): string {
  let s = STEMS.get(token);
  if (s === undefined) {
    if (STEMS.size >= STEM_MEMO_LIMIT) STEMS.clear();
    s = stemmer(token);
    STEMS.set(token, s);
  }
  return s;
}
