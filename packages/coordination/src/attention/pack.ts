/**
 * @module attention/pack
 * The inbox's token budget: entries are listed in priority order (blocking messages,
 * handoffs, wakes, needs_reply messages, blockers, stalled lanes, fyi messages, fresh
 * claims, hot files) while the whole answer stays within ATTENTION_TOKEN_BUDGET
 * tokens, counted with the real tokenizer. An entry that does not fit is left out
 * (counted in summary and budget) and smaller later ones may still fit. The first
 * candidate is always listed, so there is something to act on whatever its size.
 */
import type { TokenCounter } from '../tokens';

export interface Candidate<K extends string = string> {
  readonly bucket: K;
  readonly entry: object;
}

/** The candidates that fit next to `base` within `budget` tokens, in the order given. */
export function packByPriority<K extends string>(
  base: object,
  candidates: readonly Candidate<K>[],
  budget: number,
  tokens: TokenCounter,
): Set<Candidate<K>> {
  const listed = new Set<Candidate<K>>();
  if (budget === Number.POSITIVE_INFINITY) {
    for (const candidate of candidates) listed.add(candidate);
    return listed;
  }
  let used = tokens.count(JSON.stringify(base));
  for (const candidate of candidates) {
    // +1 for the separating comma.
    const cost = tokens.count(JSON.stringify(candidate.entry)) + 1;
    if (listed.size > 0 && used + cost > budget) continue;
    listed.add(candidate);
    used += cost;
  }
  return listed;
}

/** Each bucket's entries that were listed, in their own order. */
export function listedOf<K extends string, T extends object>(
  bucket: K,
  entries: readonly T[],
  listed: ReadonlySet<Candidate<K>>,
): T[] {
  const keep = new Set<object>();
  for (const c of listed) if (c.bucket === bucket) keep.add(c.entry);
  return entries.filter((e) => keep.has(e));
}
