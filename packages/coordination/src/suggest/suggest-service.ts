/**
 * @module suggest/suggest-service
 * `task_suggest_approach`: past task threads similar to a query, and what they teach.
 * A task's direction is the normalized sum of its observations' vectors (kept per task
 * by the backfill), so ranking every task costs one dot product each, not a scan of
 * every observation. Everything returned is derived (ids, counts, medians, previews);
 * bodies stay behind task_timeline and get_observations.
 */
import { type TaskHistory, taskFileTouches, taskHistories, taskWarnings } from '@swarm/storage';
import {
  type LikelyFile,
  NEGATIVE_WARNING_KINDS,
  type PatternToWatch,
  type ResolutionHints,
  type SimilarTask,
  type SuggestApproachResult,
  type SuggestBackend,
  type TaskSuggestApproachInput,
} from '@swarm/tools';
import { withBudget } from '../budget';
import { type DomainContext, requireTask } from '../context';
import { dot } from '../memory/embedder';
import { makeSnippet } from '../memory/snippet';
import type { VectorIndex } from '../memory/vector-index';

/** Tasks less similar than this to the query are not "similar". */
export const SIMILARITY_FLOOR = 0.2;
/** The first files of each similar task that count as "claimed first". */
const FIRST_FILES_PER_TASK = 5;
/** Similar tasks looked up before the repository filter and the limit cut. */
const CANDIDATE_TASKS = 100;
const WARNINGS_READ = 50;
const DESCRIPTION_CHARS = 120;

interface Scored {
  readonly history: TaskHistory;
  readonly similarity: number;
}

export class SuggestService implements SuggestBackend {
  readonly #ctx: DomainContext;
  readonly #index: VectorIndex;

  constructor(ctx: DomainContext, deps: { readonly index: VectorIndex }) {
    this.#ctx = ctx;
    this.#index = deps.index;
  }

  async suggestApproach(args: TaskSuggestApproachInput): Promise<SuggestApproachResult> {
    if (args.current_task_id !== undefined) await requireTask(this.#ctx, args.current_task_id);
    const { similar, reason } = await this.#similarTasks(args);
    if (similar.length === 0) return this.#answer(args, [], reason, 0);
    return this.#answer(args, similar.slice(0, args.limit), null, similar.length);
  }

  /** Tasks above the floor, most similar first, or why there are none. */
  async #similarTasks(args: TaskSuggestApproachInput): Promise<{ similar: Scored[]; reason: string | null }> {
    const off = this.#index.disabledReason();
    if (off) return { similar: [], reason: `Embeddings unavailable: ${off}.` };
    const sums = await this.#index.taskSums();
    if (sums.length === 0) {
      return {
        similar: [],
        reason:
          'No task vectors yet: the MCP server embeds observations when idle; run `colony memory index` to build them now.',
      };
    }
    const q = this.#index.embedQuery(args.query);
    if (!q) return { similar: [], reason: `Embeddings unavailable: ${this.#index.disabledReason()}.` };
    let best = 0;
    const ranked: Array<{ taskId: number; similarity: number }> = [];
    for (const { taskId, sum } of sums) {
      if (taskId === args.current_task_id) continue;
      const norm = Math.sqrt(dot(sum, sum));
      const similarity = norm > 0 ? dot(q, sum) / norm : 0;
      best = Math.max(best, similarity);
      if (similarity >= SIMILARITY_FLOOR) ranked.push({ taskId, similarity });
    }
    ranked.sort((a, b) => b.similarity - a.similarity || a.taskId - b.taskId);
    const top = ranked.slice(0, CANDIDATE_TASKS);
    const histories = new Map(
      (
        await taskHistories(
          this.#ctx.store,
          top.map((t) => t.taskId),
        )
      ).map((h) => [h.id, h]),
    );
    const similar = top.flatMap(({ taskId, similarity }) => {
      const history = histories.get(taskId);
      if (!history || (args.repo_root !== undefined && history.repoRoot !== args.repo_root)) return [];
      return [{ history, similarity }];
    });
    if (similar.length > 0) return { similar, reason: null };
    return {
      similar,
      reason:
        ranked.length === 0
          ? `No past task is similar enough: best similarity ${round(best)} is below the floor ${SIMILARITY_FLOOR}.`
          : `No similar past task in ${args.repo_root}: the ${ranked.length} above the floor belong to other repositories.`,
    };
  }

  async #answer(
    args: TaskSuggestApproachInput,
    similar: readonly Scored[],
    reason: string | null,
    similarAvailable: number,
  ): Promise<SuggestApproachResult> {
    const ids = similar.map((s) => s.history.id);
    const files = await likelyFiles(this.#ctx, similar);
    const warnings = await taskWarnings(
      this.#ctx.store,
      ids,
      NEGATIVE_WARNING_KINDS,
      this.#ctx.clock.now(),
      WARNINGS_READ,
    );
    const patterns: PatternToWatch[] = warnings.slice(0, args.limit).map((w) => ({
      description: makeSnippet(w.text, '', DESCRIPTION_CHARS),
      seen_in_task_id: w.taskId,
      kind: w.kind,
      observation_id: w.observationId,
    }));
    const payload = {
      similar_tasks: similar.map(({ history: h, similarity }) => similarTask(h, similarity)),
      first_files_likely_claimed: files.slice(0, args.limit),
      patterns_to_watch: patterns,
      resolution_hints: resolutionHints(similar.map((s) => s.history)),
      insufficient_data_reason: reason,
    };
    const available = similarAvailable + files.length + warnings.length;
    const returned = payload.similar_tasks.length + payload.first_files_likely_claimed.length + patterns.length;
    return withBudget(
      payload,
      {
        available,
        returned,
        hydrate_with: 'task_timeline',
        why_collapsed: `Top ${args.limit} similar tasks, files and patterns only: raise limit, or read a task with task_timeline.`,
      },
      this.#ctx.tokens,
    );
  }
}

function similarTask(h: TaskHistory, similarity: number): SimilarTask {
  return {
    task_id: h.id,
    similarity: round(similarity),
    branch: h.branch,
    repo_root: h.repoRoot,
    status: h.completedAt !== null ? 'completed' : h.status,
    observation_count: h.observationCount,
  };
}

/** Files the similar tasks touched first, by how many tasks did and how similar those are. */
async function likelyFiles(ctx: DomainContext, similar: readonly Scored[]): Promise<LikelyFile[]> {
  if (similar.length === 0) return [];
  const similarity = new Map(similar.map((s) => [s.history.id, s.similarity]));
  const perTask = new Map<number, number>();
  const byFile = new Map<string, { count: number; weight: number }>();
  for (const touch of await taskFileTouches(ctx.store, [...similarity.keys()])) {
    const seen = perTask.get(touch.taskId) ?? 0;
    if (seen >= FIRST_FILES_PER_TASK) continue;
    perTask.set(touch.taskId, seen + 1);
    const entry = byFile.get(touch.filePath) ?? { count: 0, weight: 0 };
    entry.count++;
    entry.weight += similarity.get(touch.taskId) ?? 0;
    byFile.set(touch.filePath, entry);
  }
  return [...byFile]
    .map(([file_path, e]) => ({
      file_path,
      appears_in_count: e.count,
      confidence: round(Math.min(1, e.weight / similar.length)),
    }))
    .sort(
      (a, b) =>
        b.appears_in_count - a.appears_in_count ||
        b.confidence - a.confidence ||
        (a.file_path < b.file_path ? -1 : a.file_path > b.file_path ? 1 : 0),
    );
}

function resolutionHints(histories: readonly TaskHistory[]): ResolutionHints {
  const done = histories.filter((h) => h.completedAt !== null);
  if (done.length === 0) {
    return {
      median_elapsed_minutes: null,
      median_handoff_count: null,
      median_subtask_count: null,
      completed_sample_size: 0,
    };
  }
  return {
    median_elapsed_minutes: Math.round(median(done.map((h) => ((h.completedAt as number) - h.createdAt) / 60_000))),
    median_handoff_count: median(done.map((h) => h.handoffCount)),
    median_subtask_count: median(done.map((h) => h.subtaskCount)),
    completed_sample_size: done.length,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
