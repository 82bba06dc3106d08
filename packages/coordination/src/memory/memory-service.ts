/**
 * @module memory/memory-service
 * Shared memory: search (compact hits), hydration, session timelines and recall.
 * Search retrieves by FTS5 BM25, then hands the candidates to the configured rankers,
 * the seam where a vector blend plugs in without touching retrieval.
 */
import {
  ftsMatchExpression,
  getObservations,
  indexPendingObservations,
  type KeywordFilter,
  type KeywordHit,
  keywordSearch,
  listSessions,
  liveMatches,
  maxObservationId,
  sessionTimeline,
} from '@swarm/storage';
import {
  ColonyError,
  type CompactSearchHit,
  type GetObservationsInput,
  type ListSessionsInput,
  type MemoryBackend,
  type ObservationBody,
  type RecallResult,
  type RecallSessionInput,
  type SearchHit,
  type SearchInput,
  type SessionSummary,
  type TimelineEntry,
  type TimelineInput,
} from '@swarm/tools';
import { appendObservation, type DomainContext, requireSession } from '../context';
import { inferIdeFromSessionId } from '../ide';
import { compressContent } from './compress';
import { rankLiveMatches } from './live-rank';
import { makeSnippet } from './snippet';

/** A retrieved candidate with its keyword score (higher is better). */
export interface SearchCandidate {
  readonly hit: KeywordHit;
  readonly score: number;
}

/**
 * Re-orders (and may re-score) keyword candidates. The default is BM25 as is; a vector
 * ranker blends similarity in by `settings.search.alpha`.
 */
export type SearchRanker = (
  query: string,
  candidates: readonly SearchCandidate[],
) => readonly SearchCandidate[] | Promise<readonly SearchCandidate[]>;

/** How many more keyword candidates than requested hits rankers get to re-order. */
export const RANKER_POOL_FACTOR = 4;

/** The live window of `liveSearch`: the newest this many observations. */
export const LIVE_MEMORY_WINDOW = 5_000;
/** The newest matches in the window `liveSearch` ranks. */
export const LIVE_MEMORY_POOL = 64;

export interface LiveSearchOptions {
  /** Observations in the window (default LIVE_MEMORY_WINDOW). */
  readonly window?: number;
  /** Newest matches ranked (default LIVE_MEMORY_POOL, at least the limit). */
  readonly pool?: number;
}

export interface MemoryServiceOptions {
  readonly rankers?: readonly SearchRanker[];
}

export class MemoryService implements MemoryBackend {
  readonly #ctx: DomainContext;
  readonly #rankers: readonly SearchRanker[];

  constructor(ctx: DomainContext, options: MemoryServiceOptions = {}) {
    this.#ctx = ctx;
    this.#rankers = options.rankers ?? [];
  }

  async search(args: SearchInput): Promise<CompactSearchHit[]> {
    const filter: KeywordFilter = {
      ...(args.kind === undefined ? {} : { kind: args.kind }),
      ...(args.task_id === undefined ? {} : { taskId: args.task_id }),
    };
    // Rankers may re-order, so give them a deeper pool than the page they cut.
    const pool = this.#rankers.length > 0 ? Math.min(args.limit * RANKER_POOL_FACTOR, 200) : args.limit;
    const candidates = await this.#retrieve(args.query, pool, args.limit, filter);
    // Hits for choosing what to hydrate: session_id and ts come with get_observations.
    return (await this.#hits(args.query, args.limit, candidates)).map(({ id, kind, snippet, score, task_id }) => ({
      id,
      kind,
      snippet,
      score,
      ...(task_id === null ? {} : { task_id }),
    }));
  }

  /** Candidates through the rankers, cut to `limit` compact hits. */
  async #hits(query: string, limit: number, candidates: readonly SearchCandidate[]): Promise<SearchHit[]> {
    let ranked = candidates;
    for (const rank of this.#rankers) ranked = await rank(query, ranked);
    return ranked.slice(0, limit).map(({ hit, score }) => ({
      id: hit.id,
      session_id: hit.sessionId,
      kind: hit.kind,
      snippet: makeSnippet(hit.content, query),
      score: Math.round(score * 1000) / 1000,
      ts: hit.ts,
      task_id: hit.taskId,
    }));
  }

  /**
   * Search of live memory, whose cost follows live work rather than history: the newest
   * `pool` observations of the window (the newest `window`) matching any query term,
   * ranked by BM25 with the window as corpus (`rankLiveMatches`), then by the rankers.
   * Older memory is `search`'s. Used for hivemind_context's memory hits.
   */
  async liveSearch(
    args: { readonly query: string; readonly limit: number },
    options: LiveSearchOptions = {},
  ): Promise<SearchHit[]> {
    const any = ftsMatchExpression(args.query, 'any');
    if (any === null || args.limit <= 0) return [];
    const window = options.window ?? LIVE_MEMORY_WINDOW;
    const pool = Math.max(options.pool ?? LIVE_MEMORY_POOL, args.limit);
    const store = this.#ctx.store;
    await indexPendingObservations(store);
    const { newest, matches } = await store.read(async () => {
      const newest = await maxObservationId(store);
      return { newest, matches: await liveMatches(store, any, Math.max(0, newest - window), pool) };
    });
    const rows = Math.min(window, newest);
    const oldest = matches.at(-1)?.id ?? 0;
    const span = matches.length < pool ? rows : newest - oldest + 1;
    const candidates = rankLiveMatches(matches, { rows, span }).map(({ match, score, content }) => ({
      hit: { ...match, content, rank: -score },
      score,
    }));
    return this.#hits(args.query, args.limit, candidates);
  }

  /**
   * Hits matching every term first, up to `pool`; when fewer than `limit` (the page)
   * match every term, hits matching any term fill the pool. A deeper pool for rankers
   * never costs the second query when the page is full of all-term hits.
   */
  async #retrieve(query: string, pool: number, limit: number, filter: KeywordFilter): Promise<SearchCandidate[]> {
    const all = ftsMatchExpression(query, 'all');
    if (all === null) return [];
    const store = this.#ctx.store;
    await indexPendingObservations(store);
    const hits = await keywordSearch(store, all, pool, filter);
    const any = ftsMatchExpression(query, 'any');
    if (hits.length < limit && any !== null && any !== all) {
      const seen = new Set(hits.map((h) => h.id));
      for (const hit of await keywordSearch(store, any, pool, filter)) {
        if (hits.length >= pool) break;
        if (!seen.has(hit.id)) hits.push(hit);
      }
    }
    return hits.map((hit) => ({ hit, score: -hit.rank }));
  }

  async getObservations(args: GetObservationsInput): Promise<ObservationBody[]> {
    const rows = await getObservations(this.#ctx.store, args.ids);
    const found = new Set(rows.map((r) => r.id));
    const missing = [...new Set(args.ids)].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new ColonyError('OBSERVATION_NOT_FOUND', `observation(s) not found: ${missing.join(', ')}`, {
        details: { missing_ids: missing },
      });
    }
    return rows.map((row) => ({
      id: row.id,
      session_id: row.sessionId,
      kind: row.kind,
      ts: row.ts,
      task_id: row.taskId,
      content: args.expand ? row.content : compressContent(row.content),
      metadata: row.metadata ?? null,
    }));
  }

  async timeline(args: TimelineInput): Promise<TimelineEntry[]> {
    // An unknown session has an empty timeline: answered, not refused.
    return (await sessionTimeline(this.#ctx.store, args.session_id, args.limit, args.around_id)).map((r) => ({
      id: r.id,
      kind: r.kind,
      ts: r.ts,
    }));
  }

  async listSessions(args: ListSessionsInput): Promise<SessionSummary[]> {
    return (await listSessions(this.#ctx.store, args.limit)).map((s) => ({
      id: s.id,
      ide: s.ide,
      cwd: s.cwd,
      started_at: s.startedAt,
      ended_at: s.endedAt,
    }));
  }

  recallSession(args: RecallSessionInput): Promise<RecallResult> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const target = await requireSession(ctx, args.target_session_id, 'target session');
      await requireSession(ctx, args.current_session_id, 'current session');
      const refs = await sessionTimeline(ctx.store, target.id, args.limit, args.around_id);
      const ownerIde = target.ide === 'unknown' ? inferIdeFromSessionId(target.id) : target.ide;
      const observationIds = refs.map((r) => r.id);
      const recallId = await appendObservation(ctx, {
        sessionId: args.current_session_id,
        kind: 'recall',
        content: `Recalled ${refs.length} observation(s) of session ${target.id} (${ownerIde}).`,
        metadata: {
          recalled_session_id: target.id,
          owner_ide: ownerIde,
          observation_ids: observationIds,
          around_id: args.around_id ?? null,
          limit: args.limit,
        },
      });
      return {
        recall_observation_id: recallId,
        session: {
          id: target.id,
          ide: target.ide,
          cwd: target.cwd,
          started_at: target.startedAt,
          ended_at: target.endedAt,
        },
        observations: refs.map((r) => ({ id: r.id, kind: r.kind, ts: r.ts })),
      };
    });
  }
}
