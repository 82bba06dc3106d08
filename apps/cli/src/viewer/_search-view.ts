/**
 * @module viewer/search-view
 * The page's search box: `search` over the store's memory, compact hits only (id, kind,
 * snippet, score, task_id when the hit is on a thread, which the page links to).
 */
import type { CompactSearchHit } from '@swarm/tools';
import { PanelError, type ReadTool } from './_reader';

export const SEARCH_LIMIT = 20;
/** Longer queries are refused rather than cut, so the page never searches for less than was typed. */
export const QUERY_MAX_CHARS = 200;

export interface SearchView {
  readonly query: string;
  readonly hits: readonly CompactSearchHit[];
}

export function parseQuery(raw: string | null): string {
  const query = (raw ?? '').trim();
  if (query === '') throw new PanelError('BAD_REQUEST', 'q is required: the words to search for');
  if (query.length > QUERY_MAX_CHARS) {
    throw new PanelError('BAD_REQUEST', `q is at most ${QUERY_MAX_CHARS} characters`);
  }
  return query;
}

export async function searchView(read: ReadTool, query: string): Promise<SearchView> {
  return { query, hits: await read<CompactSearchHit[]>('search', { query, limit: SEARCH_LIMIT }) };
}
