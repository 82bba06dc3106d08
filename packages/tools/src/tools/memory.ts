/**
 * @module tools/memory
 * Memory tools: find compact hits, hydrate chosen bodies, navigate sessions.
 * Progressive disclosure: only get_observations returns bodies.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { limit, observationId, observationKind, sessionId, taskId } from '../schemas';

export const SearchInput = z.strictObject({
  query: z.string().min(1).max(2000),
  limit: limit(10, 50),
  kind: observationKind.optional(),
  task_id: taskId.optional(),
});
export type SearchInput = z.output<typeof SearchInput>;

/** A memory hit in full, as examples_query lists it (search answers CompactSearchHit). */
export interface SearchHit {
  id: number;
  session_id: string;
  kind: string;
  snippet: string;
  score: number;
  ts: number;
  task_id: number | null;
}

/**
 * A hit as `search` answers it: just enough to choose what to hydrate (issue 17's token
 * goal: 10 hits in at most 400 tokens). session_id and ts come with get_observations.
 */
export interface CompactSearchHit {
  id: number;
  kind: string;
  snippet: string;
  score: number;
  /** Absent when the observation is on no task thread. */
  task_id?: number;
}

export interface ObservationBody {
  id: number;
  session_id: string;
  kind: string;
  ts: number;
  task_id: number | null;
  content: string;
  metadata: Record<string, unknown> | null;
}

export interface TimelineEntry {
  id: number;
  kind: string;
  ts: number;
}

export interface SessionSummary {
  id: string;
  ide: string;
  cwd: string | null;
  started_at: number;
  ended_at: number | null;
}

export interface RecallResult {
  recall_observation_id: number;
  session: SessionSummary;
  observations: TimelineEntry[];
}

export interface MemoryBackend {
  search(args: SearchInput): Promise<CompactSearchHit[]>;
  getObservations(args: GetObservationsInput): Promise<ObservationBody[]>;
  timeline(args: TimelineInput): Promise<TimelineEntry[]>;
  listSessions(args: ListSessionsInput): Promise<SessionSummary[]>;
  recallSession(args: RecallSessionInput): Promise<RecallResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly memory: MemoryBackend };

export const search = defineTool({
  name: 'search',
  title: 'Search memory',
  description: 'Search memory; hydrate chosen ids with get_observations.',
  input: SearchInput,
  core: true,
  mutates: false,
  docs: {
    returns:
      '[ { id, kind, snippet, score, task_id? } ] - compact hits only, never full bodies. Higher ' + 'score is better.',
    notes:
      'Contract change (issue 17, token goal: 10 hits in at most 400 tokens): a hit no longer carries ' +
      'session_id and ts (get_observations returns both for the ids you pick), task_id is left out when ' +
      'the observation is on no task thread, and the snippet is about 64 characters around the first ' +
      'matching term. Use query-rich terms: feature name, package, file path, task slug or exact error text. All ' +
      'terms must match; when fewer than `limit` hits match every term, hits matching any term fill ' +
      'the rest. `kind` and `task_id` narrow the search. Scoring is hybrid: the keyword candidates are ' +
      're-ranked by `alpha * BM25 (scaled 0..1) + (1 - alpha) * cosine similarity` with ' +
      'settings.search.alpha (default 0.5; 1 = BM25 alone, its negated rank as score); rows not ' +
      'embedded yet keep their keyword standing, and without vectors the score is the BM25 one.',
    example: { query: 'auth middleware', limit: 10 },
  },
  handler: (args, b: Host) => b.memory.search(args),
});

export const GetObservationsInput = z.strictObject({
  ids: z.array(observationId).min(1).max(50),
  expand: z.boolean().default(true).describe('false: compressed'),
});
export type GetObservationsInput = z.output<typeof GetObservationsInput>;

export const getObservations = defineTool({
  name: 'get_observations',
  title: 'Get observations',
  description: 'Full observation bodies by id.',
  input: GetObservationsInput,
  core: true,
  mutates: false,
  docs: {
    returns: '[ { id, session_id, kind, ts, task_id, content, metadata } ] in the order the ids were given.',
    errors: ['OBSERVATION_NOT_FOUND'],
    notes:
      'Content is returned verbatim by default. `expand: false` returns a compressed form (filler ' +
      'words dropped, common words abbreviated; code, paths and numbers kept) that costs fewer tokens. ' +
      'Any unknown id fails the call with OBSERVATION_NOT_FOUND and `missing_ids`.',
    example: { ids: [12, 34], expand: true },
  },
  handler: (args, b: Host) => b.memory.getObservations(args),
});

export const TimelineInput = z.strictObject({
  session_id: sessionId,
  around_id: observationId.optional(),
  limit: limit(50, 200),
});
export type TimelineInput = z.output<typeof TimelineInput>;

export const timeline = defineTool({
  name: 'timeline',
  title: 'Session timeline',
  description: "A session's observation ids in time order.",
  input: TimelineInput,
  mutates: false,
  docs: {
    returns: '[ { id, kind, ts } ] oldest first.',
    errors: ['SESSION_NOT_FOUND'],
    example: { session_id: 'sess_abc', around_id: 42, limit: 50 },
  },
  handler: (args, b: Host) => b.memory.timeline(args),
});

export const ListSessionsInput = z.strictObject({ limit: limit(20, 100) });
export type ListSessionsInput = z.output<typeof ListSessionsInput>;

export const listSessions = defineTool({
  name: 'list_sessions',
  title: 'List sessions',
  description: 'Recent sessions, newest first.',
  input: ListSessionsInput,
  mutates: false,
  docs: {
    returns: '[ { id, ide, cwd, started_at, ended_at } ]. Use id with timeline or recall_session.',
    example: { limit: 20 },
  },
  handler: (args, b: Host) => b.memory.listSessions(args),
});

export const RecallSessionInput = z.strictObject({
  target_session_id: sessionId,
  current_session_id: sessionId,
  around_id: observationId.optional(),
  limit: limit(20, 100),
});
export type RecallSessionInput = z.output<typeof RecallSessionInput>;

export const recallSession = defineTool({
  name: 'recall_session',
  title: 'Recall session',
  description: "Copy a past session's timeline into yours.",
  input: RecallSessionInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns:
      '{ recall_observation_id, session: { id, ide, cwd, started_at, ended_at }, observations: [ { id, ' +
      'kind, ts } ] }. The audit observation (kind "recall", in the current session) carries metadata ' +
      '{ recalled_session_id, owner_ide, observation_ids, around_id, limit }.',
    errors: ['SESSION_NOT_FOUND'],
    notes:
      'Both sessions must already exist: a recall never creates a phantom session. owner_ide falls ' +
      'back to the IDE inferred from the target session id when its row says unknown.',
    example: { target_session_id: 'codex-abc-123', current_session_id: 'claude-now-789', around_id: 4421, limit: 25 },
  },
  handler: (args, b: Host) => b.memory.recallSession(args),
});

export const memoryTools = [search, getObservations, timeline, listSessions, recallSession];
