/**
 * @module suggest
 * "did you mean": the closest known word to a mistyped command or option, when it is
 * close enough to be a typo (edit distance from fastest-levenshtein).
 */
import { closest, distance } from 'fastest-levenshtein';

/** The closest candidate within max(2, a third of the word's length) edits; undefined otherwise. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0 || word === '') return undefined;
  const best = closest(word, [...candidates]);
  return distance(word, best) <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** `; did you mean "x"?` or '' (for appending to an error message). */
export function didYouMeanText(word: string, candidates: readonly string[], quote = true): string {
  const best = didYouMean(word, candidates);
  return best === undefined ? '' : `; did you mean ${quote ? `"${best}"` : best}?`;
}
