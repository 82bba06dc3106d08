/**
 * @module memory/snippet
 * A short window of an observation body around the first query term, for compact
 * search hits.
 */

/** About 15 cl100k tokens: a 10-hit search stays within its 400-token goal (issue 17). */
export const SNIPPET_CHARS = 64;

export function makeSnippet(content: string, query: string, maxChars = SNIPPET_CHARS): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  const lower = flat.toLowerCase();
  const terms = (query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).sort((a, b) => b.length - a.length);
  let at = -1;
  for (const term of terms) {
    // Stemmed matches ("middlewares" for "middleware") share a prefix.
    const probe = term.length > 5 ? term.slice(0, Math.max(4, term.length - 2)) : term;
    at = lower.indexOf(probe);
    if (at >= 0) break;
  }
  if (at < 0) return `${flat.slice(0, maxChars - 1).trimEnd()}…`;
  let start = Math.max(0, at - Math.floor(maxChars / 3));
  const end = Math.min(flat.length, start + maxChars);
  start = Math.max(0, end - maxChars);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < at) start = space + 1;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}
